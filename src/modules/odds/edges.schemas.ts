import { type Static, Type } from 'typebox';
import { DEVIG_METHODS } from '../../shared/pricing/devig.js';
import { Id, NamedRef } from '../../shared/wire.js';
import { BoardScope, PriceInFormat } from './board.schemas.js';
import { DeepLinkFields } from './odds.schemas.js';
import { EDGES_MAX_LISTED, EdgesMore, EdgesMoreAnswer, KellyStake, LowHoldAnswer, MiddlesAnswer, orNull, Selection } from './edges-more.schemas.js';

export { EDGES_MAX_LISTED } from './edges-more.schemas.js';

export const EdgesBody = Type.Object(
  {
    ...BoardScope,
    min_edge: Type.Optional(
      Type.Number({
        minimum: -100,
        maximum: 1000,
        description: 'The least expected value, in percent of the stake, that a value bet must have: EV% = (price × p_fair − 1) × 100. Default 0.',
      }),
    ),
    ...EdgesMore,
  },
  { additionalProperties: false, examples: [{ timezone: 'UTC', min_edge: 2, devig: 'shin' }] },
);
export type EdgesBody = Static<typeof EdgesBody>;

export const ValueBet = Type.Object(
  {
    event_betting_market_position_id: orNull(Id(), 'The selection\'s own id, as on board items.'),
    ...Selection,
    position: Type.String({ description: 'The selection, as in the odds rows.' }),
    line: orNull(Type.Number(), 'The line of the book\'s price (the line of the fair price: the consensus line of the item, or the reference book\'s line); null for markets without one.'),
    operator: NamedRef('The book offering the price.'),
    price: PriceInFormat,
    price_decimal: Type.Number({ exclusiveMinimum: 1, description: 'The book\'s decimal price.' }),
    fair_probability: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'The fair probability of the selection, by the `devig` method asked, to 6 decimals: of the consensus, or of the reference book\'s own market (`devig_reference_operator_id`).',
    }),
    fair_price: Type.Number({ exclusiveMinimum: 1, description: 'The fair decimal price, 1 / fair_probability (unrounded), to 6 decimals.' }),
    ev_pct: Type.Number({ description: 'Expected value in percent of the stake: (price_decimal × fair_probability − 1) × 100, to 6 decimals; `min_edge` is compared with it unrounded.' }),
    kelly_stake: KellyStake,
    ...DeepLinkFields,
  },
  { title: 'ValueBet', additionalProperties: false },
);

export const Arbitrage = Type.Object(
  {
    ...Selection,
    implied_sum: Type.Number({ description: 'Σ 1/d over the best price of each outcome: below 1. To 6 decimals.' }),
    profit_pct: Type.Number({ description: 'The margin the stakes lock, in percent of the total staked: (1 / implied_sum − 1) × 100, to 6 decimals.' }),
    payout: Type.Number({ description: 'What the stakes return whatever the result, for 100 units staked: 100 / implied_sum, to 6 decimals.' }),
    legs: Type.Array(
      Type.Object(
        {
          position: Type.String({ description: 'The outcome.' }),
          line: orNull(Type.Number(), 'Its line; null for markets without one.'),
          price: PriceInFormat,
          price_decimal: Type.Number({ exclusiveMinimum: 1, description: 'The best decimal price of the outcome across the books.' }),
          operators: Type.Array(NamedRef('A book offering it.'), { description: 'Every book offering exactly that price, by operator id.' }),
          stake: Type.Number({ description: 'The stake on this outcome, out of 100 units: 100 × (1/d) / implied_sum, to 6 decimals.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'One leg per outcome of the market, by position.' },
    ),
  },
  { title: 'Arbitrage', additionalProperties: false },
);

export const EdgesAnswer = Type.Object(
  {
    devig: Type.Enum(DEVIG_METHODS, { description: 'The de-vig method of the fair probabilities.' }),
    min_edge: Type.Number({ description: 'The least EV% asked.' }),
    value_bets: Type.Array(ValueBet, { description: `Prices whose EV% is at least min_edge, the largest first; at most ${EDGES_MAX_LISTED}.` }),
    value_bets_total: Type.Integer({ description: 'How many prices qualify, listed or not.' }),
    arbitrages: Type.Array(Arbitrage, { description: `Markets whose best prices across books imply less than 1, the largest margin first; at most ${EDGES_MAX_LISTED}.` }),
    arbitrages_total: Type.Integer({ description: 'How many arbitrages there are, listed or not.' }),
    ...EdgesMoreAnswer,
    ...MiddlesAnswer,
    ...LowHoldAnswer,
  },
  { title: 'OddsEdges', additionalProperties: false },
);
export type EdgesAnswer = Static<typeof EdgesAnswer>;
