import { type Static, Type } from 'typebox';
import { HistoryItem } from '../history/index.js';

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
