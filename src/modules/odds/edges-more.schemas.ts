import { Type } from 'typebox';
import { Id, NamedRef } from '../../shared/wire.js';
import { PriceInFormat } from './board.schemas.js';

/**
 * The edges beyond value bets and arbitrages (docs/data.md#middles, #low-hold-markets,
 * #kelly-stakes, #a-reference-book): their request fields, and their parts of the answer.
 */

/** The most items of each kind one answer lists, the largest first. */
export const EDGES_MAX_LISTED = 100;

export const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

/** What an edge is of: an event's market, in a period, for a player. */
export const Selection = {
  event_id: Type.Integer({ description: 'The event.' }),
  betting_market: NamedRef('The betting market.'),
  event_period_id: orNull(Id(), 'The period priced; null: the full game.'),
  player_id: orNull(Id(), 'The player of a player prop; null otherwise.'),
};

export const EdgesMore = {
  max_hold: Type.Optional(
    Type.Number({
      minimum: -1,
      maximum: 1,
      description:
        'Lists the low-hold markets: per market and line, the best price of each outcome across the books, when their combined hold, Σ 1/best price − 1 (a fraction, as the board\'s `hold`), is at most this. Without it no low-hold market is listed.',
    }),
  ),
  kelly_fraction: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: 1,
      description: 'The share of the Kelly stake each value bet\'s `kelly_stake` is: 1 (the default) full Kelly, 0.5 half Kelly.',
    }),
  ),
  devig_reference_operator_id: Type.Optional(
    Id('Takes the fair prices from this book\'s own market, de-vigged, instead of the consensus (404 when unknown). Wins over devig_reference_operator_key.'),
  ),
  devig_reference_operator_key: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'The reference book by key (404 when unknown, 409 when it names several).' }),
  ),
};

export const KellyStake = Type.Number({
  minimum: 0,
  description:
    'The stake as a fraction of the bankroll: kelly_fraction × (fair_probability × price_decimal − 1) ÷ (price_decimal − 1), to 6 decimals; 0 when the expected value is not positive.',
});

const Leg = {
  position: Type.String({ description: 'The outcome.' }),
  price: PriceInFormat,
  price_decimal: Type.Number({ exclusiveMinimum: 1, description: 'The best decimal price of the outcome at its line across the books.' }),
  operators: Type.Array(NamedRef('A book offering it.'), { description: 'Every book offering exactly that price, by operator id.' }),
};

export const Middle = Type.Object(
  {
    ...Selection,
    window: Type.Object(
      {
        low: Type.Number({ description: 'The lower edge, not included.' }),
        high: Type.Number({ description: 'The upper edge, not included.' }),
      },
      {
        additionalProperties: false,
        description:
          'Both bets win when the number the market settles on is strictly between `low` and `high`: the total (over/under, of the game, a team or a player), or the home side\'s lead, home score − away score (spreads).',
      },
    ),
    legs: Type.Array(
      Type.Object(
        {
          ...Leg,
          line: Type.Number({ description: 'Its line.' }),
          stake: Type.Number({ description: 'The stake on this bet, out of 100 units: 100 × (1/d) ÷ Σ 1/d over the two legs, to 6 decimals.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The two bets: the one that wins above the window\'s low edge (over, or the home side) first.' },
    ),
    payout_outside: Type.Number({ description: 'What the 100 units return on a result outside the window, where one bet wins and the other loses: 100 ÷ Σ 1/d, to 6 decimals.' }),
    profit_pct_outside: Type.Number({ description: '(payout_outside ÷ 100 − 1) × 100, to 6 decimals: usually a small loss, the cost of the chance of the middle.' }),
    payout_inside: Type.Number({ description: 'What they return on a result inside the window, where both win: 2 × payout_outside, to 6 decimals.' }),
    profit_pct_inside: Type.Number({ description: '(payout_inside ÷ 100 − 1) × 100, to 6 decimals.' }),
  },
  { title: 'Middle', additionalProperties: false },
);

export const LowHoldMarket = Type.Object(
  {
    ...Selection,
    hold: Type.Number({ description: 'Σ 1/d − 1 over the best price of each outcome, to 6 decimals: below 0 for an arbitrage.' }),
    legs: Type.Array(Type.Object({ ...Leg, line: orNull(Type.Number(), 'Its line; null for markets without one.') }, { additionalProperties: false }), {
      description: 'One leg per outcome of the market, by position.',
    }),
  },
  { title: 'LowHoldMarket', additionalProperties: false },
);

export const EdgesMoreAnswer = {
  kelly_fraction: Type.Number({ description: 'The share of the Kelly stake asked (default 1).' }),
  devig_reference_operator_id: orNull(Id(), 'The book whose own market gave the value bets\' fair prices, by operator id; null: the consensus.'),
};

export const MiddlesAnswer = {
  middles: Type.Array(Middle, {
    description: `Pairs of lines of one market at two books leaving a window in which both bets win, the smallest loss outside the window first, then the widest window; at most ${EDGES_MAX_LISTED}.`,
  }),
  middles_total: Type.Integer({ description: 'How many middles there are, listed or not.' }),
};

export const LowHoldAnswer = {
  max_hold: Type.Optional(Type.Number({ description: 'Only with `max_hold` in the request: the hold asked.' })),
  low_hold_markets: Type.Optional(
    Type.Array(LowHoldMarket, { description: `Only with \`max_hold\`: markets whose best prices hold at most max_hold, the lowest hold first; at most ${EDGES_MAX_LISTED}.` }),
  ),
  low_hold_markets_total: Type.Optional(Type.Integer({ description: 'Only with `max_hold`: how many low-hold markets there are, listed or not.' })),
};
