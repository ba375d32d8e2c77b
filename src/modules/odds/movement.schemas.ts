import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { NamedRef } from '../../shared/wire.js';
import { BOARD_MAX_PAGE_SIZE, BoardItem, BoardScope, PriceInFormat } from './board.schemas.js';
import { MOVEMENT_WINDOWS } from './movement.figures.js';

const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });
const Instant = (description: string) => Type.String({ format: 'date-time', description });
const Decimal = (description: string) => Type.Number({ exclusiveMinimum: 1, description });

const Price = (description: string) =>
  Type.Object({ price: PriceInFormat, price_decimal: Decimal('The decimal price (for the consensus: to 6 decimals).') }, { additionalProperties: false, description });
const PriceSince = (description: string, since: string) =>
  Type.Object({ price: PriceInFormat, price_decimal: Decimal('The decimal price (for the consensus: to 6 decimals).'), at: Instant(since) }, { additionalProperties: false, description });

const Change = (window: string) =>
  Type.Object(
    {
      price_decimal: Type.Number({ description: `The current decimal price minus the one in force ${window} before the instant read, to 6 decimals.` }),
      probability_points: Type.Number({
        description: 'The change in implied probability, (1/current − 1/then) × 100, in percentage points, to 6 decimals: positive when the price shortened.',
      }),
    },
    { additionalProperties: false, description: `The change over the last ${window}; the price then is the opening when the series opened within the window.` },
  );

const windowWords: Record<keyof typeof MOVEMENT_WINDOWS, string> = { '5m': '5 minutes', '1h': 'hour', '24h': '24 hours' };

const MovementOf = (description: string) =>
  Type.Object(
    {
      opening: PriceSince('The first price recorded in the history kept.', 'When it was recorded (changed_at), ISO 8601, UTC.'),
      current: PriceSince('The price now, or at `as_of`.', 'Since when: the last move, else the opening, ISO 8601, UTC.'),
      high: Price('The highest price recorded up to the instant read.'),
      low: Price('The lowest price recorded up to the instant read.'),
      moves: Type.Integer({ minimum: 0, description: 'How many times the price changed after the opening.' }),
      first_move_at: orNull(Instant('The first move.'), 'When the price first changed after the opening; null without a move.'),
      last_move_at: orNull(Instant('The last move.'), 'When the price last changed; null without a move.'),
      changes: Type.Object(
        { '5m': Change(windowWords['5m']), '1h': Change(windowWords['1h']), '24h': Change(windowWords['24h']) },
        { additionalProperties: false, description: 'The change over the last 5 minutes, hour and 24 hours back from now (or `as_of`).' },
      ),
    },
    { additionalProperties: false, description },
  );

// The selection named as the board names it.
const { event_betting_market_position_id, event_id, betting_market, event_period_id, player_id, position, is_main } = BoardItem.properties;
const selection = {
  event_betting_market_position_id,
  event_id,
  betting_market,
  event_period_id,
  player_id,
  position,
  is_main,
  line: orNull(Type.Number(), 'The line of an alternate-line item; null for a main-line item, each of whose books is at its own main line.'),
};

export const MovementItem = Type.Object(
  {
    ...selection,
    books: Type.Array(Type.Object({ operator: NamedRef('The book.'), movement: MovementOf('How the book\'s price moved.') }, { additionalProperties: false }), {
      description: 'Every book open on the selection at the instant read, by operator id, with its price\'s movement.',
    }),
    consensus: orNull(
      MovementOf('How the consensus moved.'),
      'The movement of the consensus (the median price of the books open at each instant at which any of them changed); null when no book is open.',
    ),
  },
  { title: 'MovementItem', additionalProperties: false },
);
export type MovementItem = Static<typeof MovementItem>;

const { devig: _devig, include_deeplinks: _deeplinks, ...scope } = BoardScope;

export const MovementBody = Type.Object(
  {
    ...scope,
    as_of: Type.Optional(
      Instant('Read the history as of this instant (ISO 8601 with a time zone): only changes at or before it count, and the windows end at it. Between the oldest change kept and now, else 422.'),
    ),
    ...pagingProperties(BOARD_MAX_PAGE_SIZE),
  },
  { additionalProperties: false, examples: [{ timezone: 'America/New_York', page: 1, page_size: 20 }] },
);
export type MovementBody = Static<typeof MovementBody>;

export const MovementPage = PageOf(MovementItem, 'MovementPage');
