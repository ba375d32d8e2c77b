import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { Id, MAX_FILTER_ITEMS } from '../../shared/wire.js';
import { BoardScope } from './board.schemas.js';

export const MOVES_MAX_PAGE_SIZE = 100;

const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });
const Instant = (description: string) => Type.String({ format: 'date-time', description });

const MoveBook = Type.Object(
  {
    operator_id: Type.Integer({ description: 'The book.' }),
    odds_id: Type.Integer({ description: 'Its odds row (as in POST /v1/odds/upcoming-odds-by-event).' }),
    from_price: Type.Number({ description: 'Its decimal price open `window_seconds` before the move.' }),
    to_price: Type.Number({ description: 'Its decimal price at the move.' }),
    points: Type.Number({ description: 'Implied-probability points it shortened by: 100 × (1/to_price − 1/from_price), to 6 decimals.' }),
    percent: Type.Number({ description: 'Percent its decimal price fell by: 100 × (from_price − to_price) / from_price, to 6 decimals.' }),
    since: Instant('Its first price change within the window: it moved between then and `changed_at`.'),
  },
  { additionalProperties: false },
);

/** A steam move or a drop as the list, the odds stream (`types=steam,drop`) and the webhooks show it. */
export const MoveItem = Type.Object(
  {
    id: Id('The move.'),
    type: Type.Union([Type.Literal('steam'), Type.Literal('drop')], { description: '`steam`: several books shortened the selection together; `drop`: one book shortened it by `min_drop` percent.' }),
    history_id: Id('The price change that made the move (its `id` on the odds stream and in the price history).'),
    event_id: Type.Integer({ description: 'The event.' }),
    betting_market_id: Type.Integer({ description: 'The betting market.' }),
    event_period_id: orNull(Id(), 'The period priced; null: the full game.'),
    player_id: orNull(Id(), 'The player of a player prop; null otherwise.'),
    position: Type.String({ description: 'The selection, as on the board.' }),
    is_main: Type.Boolean({ description: 'True for a main-line selection (each book at its own main line), as on the board.' }),
    line: orNull(Type.Number(), 'The line of an alternate-line selection; null on a main-line one.'),
    operator_id: orNull(Type.Integer(), "A drop's book; null for a steam move."),
    operator_ids: Type.Array(Type.Integer(), { description: 'The books that moved, by id (a drop: its one book).' }),
    from_price: Type.Number({ description: "A drop: the book's decimal price open `window_seconds` before; steam: the median of its books' (to 6 decimals)." }),
    to_price: Type.Number({ description: "A drop: the book's decimal price after the move; steam: the median of its books' (to 6 decimals)." }),
    size: Type.Number({
      description: "Steam: the least of its books' moves in implied-probability points (each book moved at least this); drop: the percent its decimal price fell. To 6 decimals.",
    }),
    books: Type.Array(MoveBook, { description: 'Each book that moved, by operator id.' }),
    window_seconds: Type.Integer({ description: 'The window the move was found over (MOVES_WINDOW_S then).' }),
    started_at: Instant("The first change of the move within the window (the earliest of its books' `since`)."),
    changed_at: Instant('The change that made the move: when the condition started to hold.'),
    detected_at: Instant('When the move was found and stored.'),
  },
  { title: 'OddsMove', additionalProperties: false },
);
export type MoveItem = Static<typeof MoveItem>;

const { odds_format: _format, devig: _devig, include_deeplinks: _links, event_ids: _events, event_date: _date, ...narrowing } = BoardScope;
const scope = {
  event_ids: Type.Optional(Type.Array(Id('An event id.'), { maxItems: MAX_FILTER_ITEMS, description: 'Only moves of these events. Without it (or empty), moves of every event, unless `event_date` names a day.' })),
  event_date: Type.Optional(Type.String({ format: 'date', description: 'Only moves of the events of this day, YYYY-MM-DD, read in `timezone`. Ignored with `event_ids`.' })),
  ...narrowing,
};

const Threshold = (description: string, minimum: number, maximum: number, integer = false) =>
  Type.Optional(integer ? Type.Integer({ minimum, maximum, description }) : Type.Number({ minimum, maximum, description }));

export const MovesBody = Type.Object(
  {
    ...scope,
    types: Type.Optional(
      Type.Array(Type.Union([Type.Literal('steam'), Type.Literal('drop')]), { minItems: 1, maxItems: 2, uniqueItems: true, description: 'Which moves: `steam`, `drop` or both (the default).' }),
    ),
    from: Type.Optional(Instant('Only moves whose `changed_at` is at or after this instant (ISO 8601 with a time zone).')),
    to: Type.Optional(Instant('Only moves whose `changed_at` is before this instant; not before `from`.')),
    min_books: Threshold('Steam: at least this many books (at least MOVES_MIN_BOOKS; a smaller value is 422).', 1, 1_000, true),
    min_move: Threshold('Steam: each by at least this many implied-probability points (at least MOVES_MIN_MOVE; a smaller value is 422).', 0, 100),
    min_drop: Threshold('Drop: by at least this percent of the decimal price (at least MOVES_MIN_DROP; a smaller value is 422).', 0, 100),
    window: Threshold('Seconds a move may take (at most MOVES_WINDOW_S; a larger value is 422).', 1, 86_400, true),
    ...pagingProperties(MOVES_MAX_PAGE_SIZE),
  },
  { additionalProperties: false, examples: [{ types: ['steam', 'drop'], page: 1, page_size: 20 }] },
);
export type MovesBody = Static<typeof MovesBody>;

export const MovesPage = PageOf(MoveItem, 'MovesPage');
