import { type Static, Type } from 'typebox';
import { HistoryItem } from '../history/index.js';
import { MoveItem } from '../odds/index.js';

/**
 * The `data` of the deliveries the former makes from the price history and the board changes
 * (odds.changed, board.changed), as the sender posts it inside `{type, timestamp, data}`. The
 * changes are the stream's own items: a client reads a webhook as it reads the odds stream.
 */

const Sequence = Type.Integer({
  minimum: 1,
  description: "The delivery's place in its endpoint's order: 1, 2, 3, … with no gap, whatever the type. A gap seen by a receiver is a delivery still to come (retried, or to replay).",
});

/** The stream's `event: board` item (docs/api.md#live-odds-stream): a selection whose best, consensus or fair price changed, as it is now. */
export const BoardEventItem = Type.Object(
  {
    event_id: Type.Integer({ description: 'The event.' }),
    betting_market_id: Type.Integer({ description: 'The betting market.' }),
    event_period_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The period priced; null: the full game.' }),
    player_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The player of a player prop; null otherwise.' }),
    position: Type.String({ description: 'The selection, as in the odds rows.', example: 'home' }),
    is_main: Type.Boolean({ description: 'True for a main-line selection (each book at its own line).' }),
    line: Type.Union([Type.Number(), Type.Null()], { description: "An alternate line's; null on a main-line selection." }),
    event_betting_market_position_id: Type.Union([Type.Integer(), Type.Null()], { description: "The selection's own id." }),
    best: Type.Union(
      [
        Type.Object(
          { price_decimal: Type.Number({ description: 'The highest decimal price.' }), operator_ids: Type.Array(Type.Integer(), { description: 'The books offering it.' }) },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The best price and its books; null when no book prices the selection any more.' },
    ),
    consensus: Type.Union(
      [
        Type.Object(
          { price_decimal: Type.Number({ description: 'The median decimal price, to 6 decimals.' }), line: Type.Union([Type.Number(), Type.Null()], { description: "The median of the books' lines." }) },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The median price and line across the books; null when none prices it.' },
    ),
    fair: Type.Union(
      [
        Type.Object(
          { probability: Type.Number({ description: 'The no-vig probability, to 6 decimals.' }), price: Type.Number({ description: 'The no-vig decimal price, to 6 decimals.' }) },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The consensus fair price by the default method (multiplicative); null when there is none.' },
    ),
    changed: Type.Array(Type.Union([Type.Literal('best'), Type.Literal('consensus'), Type.Literal('fair')]), { description: 'Which of best, consensus and fair changed.' }),
  },
  { title: 'BoardEvent', additionalProperties: false },
);
export type BoardEventItem = Static<typeof BoardEventItem>;

/** odds.changed: price changes in the order they were recorded, each as the odds stream sends it (with the same id). */
export const OddsChangedData = Type.Object(
  {
    sequence: Sequence,
    changes: Type.Array(HistoryItem, { minItems: 1, description: 'The price changes, oldest first; at most WEBHOOK_BATCH_MAX.' }),
  },
  { title: 'OddsChangedData', additionalProperties: false },
);
export type OddsChangedData = Static<typeof OddsChangedData>;

/** board.changed: board changes in the order they were computed, each as the odds stream's board event. */
export const BoardChangedData = Type.Object(
  {
    sequence: Sequence,
    changes: Type.Array(BoardEventItem, { minItems: 1, description: 'The board changes, oldest first; at most WEBHOOK_BATCH_MAX.' }),
  },
  { title: 'BoardChangedData', additionalProperties: false },
);
export type BoardChangedData = Static<typeof BoardChangedData>;

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });
const OperatorIds = (description: string) => Type.Array(Type.Integer(), { description });
const Edge = Type.Number({ description: "The edge as a fraction, to 6 decimals: 0.02 is 2%. An endpoint's `min_edge` is compared with it unrounded." });
const EdgeMarket = {
  event_id: Type.Integer({ description: 'The event.' }),
  betting_market_id: Type.Integer({ description: 'The betting market.' }),
  event_period_id: nullable(Type.Integer(), 'The period priced; null: the full game.'),
  player_id: nullable(Type.Integer(), 'The player of a player prop; null otherwise.'),
};

/** A value bet that appeared: a selection's best price at the consensus line against its consensus fair probability, as POST /v1/odds/edges lists it. */
export const ValueEdgeItem = Type.Object(
  {
    kind: Type.Literal('value'),
    ...EdgeMarket,
    event_betting_market_position_id: nullable(Type.Integer(), "The selection's own id."),
    position: Type.String({ description: 'The selection, as in the odds rows.' }),
    line: nullable(Type.Number(), 'The line of the price (the consensus line); null for markets without one.'),
    operator_ids: OperatorIds('The books offering the price.'),
    price_decimal: Type.Number({ description: 'The decimal price.' }),
    fair_probability: Type.Number({ description: 'The consensus fair probability by the default de-vig method, to 6 decimals.' }),
    fair_price: Type.Number({ description: 'The consensus fair decimal price, to 6 decimals.' }),
    ev_pct: Type.Number({ description: "The expected value in percent of the stake, (price_decimal × fair_probability − 1) × 100, to 6 decimals: the edges endpoint's ev_pct." }),
    edge: Edge,
  },
  { title: 'ValueEdge', additionalProperties: false },
);

/** An arbitrage that appeared: a market's best prices across the books, implying less than 1, as POST /v1/odds/edges lists it. */
export const ArbitrageEdgeItem = Type.Object(
  {
    kind: Type.Literal('arbitrage'),
    ...EdgeMarket,
    operator_ids: OperatorIds('Every book of a leg.'),
    implied_sum: Type.Number({ description: 'Σ 1/d over the best price of each outcome, to 6 decimals.' }),
    profit_pct: Type.Number({ description: 'The margin the stakes lock, (1 / implied_sum − 1) × 100, to 6 decimals.' }),
    payout: Type.Number({ description: 'What the stakes return whatever the result, for 100 staked, to 6 decimals.' }),
    edge: Edge,
    legs: Type.Array(
      Type.Object(
        {
          position: Type.String({ description: 'The outcome.' }),
          line: nullable(Type.Number(), 'Its line; null for markets without one.'),
          price_decimal: Type.Number({ description: 'The best decimal price of the outcome across the books.' }),
          operator_ids: OperatorIds('The books offering it.'),
          stake: Type.Number({ description: 'The stake on this outcome out of 100, to 6 decimals.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'One leg per outcome of the market, by position.' },
    ),
  },
  { title: 'ArbitrageEdge', additionalProperties: false },
);

export const EdgeItem = Type.Union([ValueEdgeItem, ArbitrageEdgeItem], { description: "A value bet or an arbitrage, by `kind`: what POST /v1/odds/edges shows of it with every book, the alternate lines and the default de-vig." });
export type EdgeItem = Static<typeof EdgeItem>;

/** edge.found: the value bets and arbitrages that reached the endpoint's min_edge (any positive edge without one) from below, or from none. */
export const EdgeFoundData = Type.Object(
  {
    sequence: Sequence,
    edges: Type.Array(EdgeItem, { minItems: 1, description: 'The edges found, value bets before arbitrages; at most WEBHOOK_BATCH_MAX.' }),
  },
  { title: 'EdgeFoundData', additionalProperties: false },
);
export type EdgeFoundData = Static<typeof EdgeFoundData>;

/** odds.steam and odds.drop: the moves found since the previous delivery, each as POST /v1/odds/moves lists it. */
const MovesData = (title: string, description: string) =>
  Type.Object({ sequence: Sequence, moves: Type.Array(MoveItem, { minItems: 1, description }) }, { title, additionalProperties: false });
export const OddsSteamData = MovesData('OddsSteamData', 'The steam moves found, oldest first; at most WEBHOOK_BATCH_MAX.');
export const OddsDropData = MovesData('OddsDropData', 'The drops found, oldest first; at most WEBHOOK_BATCH_MAX.');
