import { type Static, Type } from 'typebox';
import { eventKindsProperty } from '../../shared/event-kinds.js';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { ODDS_FORMATS } from '../../shared/odds-format.js';
import { DEVIG_METHODS, NO_FAIR_PRICE_REASONS } from '../../shared/pricing/devig.js';
import { Id, MAX_FILTER_ITEMS, NamedRef } from '../../shared/wire.js';
import { AsOf, DeepLinkFields, IncludeDeepLinks, oddsRowFilters, PRICE_FORMS } from './odds.schemas.js';

export const BOARD_MAX_PAGE_SIZE = 100;

export const PriceInFormat = Type.Union([...PRICE_FORMS], { description: 'The price in the `odds_format` asked (decimal by default).' });
const Decimal = (description: string) => Type.Number({ exclusiveMinimum: 1, description });
const Probability = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });
const ids = (description: string) => Type.Array(Id('An id.'), { maxItems: MAX_FILTER_ITEMS, description });
const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

const BookPrice = Type.Object(
  {
    operator: NamedRef('The operator (sportsbook).'),
    price: PriceInFormat,
    price_decimal: Decimal('The decimal price, whatever `odds_format` asks.'),
    line: orNull(Type.Number(), 'This book\'s line for the selection; null for markets without one.'),
    is_live: Type.Boolean({ description: 'True when the book made the price while the event was live.' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the book last changed the price, ISO 8601, UTC.' }),
    ...DeepLinkFields,
  },
  { additionalProperties: false },
);

const Fair = {
  probability: orNull(Probability('The no-vig probability, to 6 decimals.'), 'The no-vig probability of the selection, to 6 decimals; null when there is no fair price (see `reason`).'),
  price: orNull(Decimal('The no-vig decimal price, to 6 decimals.'), 'The no-vig decimal price, 1 / probability (unrounded), to 6 decimals; null when there is no fair price.'),
  hold: orNull(Type.Number(), 'The overround of the market, Σ 1/d − 1 over its outcomes, to 6 decimals; null when the market is incomplete.'),
  reason: orNull(Type.Enum(NO_FAIR_PRICE_REASONS), 'Why there is no fair price (docs/data.md#fair-prices-and-de-vig-methods); null when there is one.'),
};

export const BoardItem = Type.Object(
  {
    event_betting_market_position_id: orNull(
      Id(),
      'The selection\'s own id (as on odds items and flows). It names one line: on a main-line item, the line most of the books are at. Null only for rows stored before selections had ids, until their next import.',
    ),
    event_id: Type.Integer({ description: 'The event.' }),
    betting_market: NamedRef('The betting market.'),
    event_period_id: orNull(Id(), 'The period priced; null: the full game.'),
    player_id: orNull(Id(), 'The player of a player prop; null otherwise.'),
    position: Type.String({ description: 'The selection: `home`, `over`, a player\'s name with over or under, as in the odds rows.' }),
    is_main: Type.Boolean({ description: 'True for a main-line item (each book at its own main line); false for an alternate line, one item per line.' }),
    line: orNull(Type.Number(), 'The line of an alternate-line item; null for a main-line item, whose books each give their own line in `prices`.'),
    prices: Type.Array(BookPrice, { description: 'Every book\'s current open price for the selection, by operator id.' }),
    best: Type.Object(
      {
        price: PriceInFormat,
        price_decimal: Decimal('The highest decimal price.'),
        operators: Type.Array(NamedRef('A book offering it.'), { description: 'Every book offering exactly the best price, by operator id.' }),
      },
      { additionalProperties: false, description: 'The best (highest) price and the books offering it.' },
    ),
    consensus: Type.Object(
      {
        price: PriceInFormat,
        price_decimal: Decimal('The median decimal price across the books (the mean of the middle two for an even count), to 6 decimals; `price` is this figure in `odds_format`.'),
        line: orNull(Type.Number(), 'The median of the books\' lines, to 6 decimals; null when none has one.'),
      },
      { additionalProperties: false, description: 'The median price and the median line across the books.' },
    ),
    fair: Type.Object(
      {
        method: Type.Enum(DEVIG_METHODS, { description: 'The de-vig method asked (`devig`).' }),
        consensus: Type.Object(Fair, {
          additionalProperties: false,
          description: 'The de-vig of the median prices of each outcome of the market, as if one book had offered them.',
        }),
        books: Type.Array(Type.Object({ operator: NamedRef('The book.'), ...Fair }, { additionalProperties: false }), {
          description: 'Per book, by operator id: the book\'s own market de-vigged.',
        }),
      },
      { additionalProperties: false, description: 'Prices without the bookmaker\'s margin.' },
    ),
  },
  { title: 'BoardItem', additionalProperties: false },
);
export type BoardItem = Static<typeof BoardItem>;

/** What a board is of, and how its prices are shown: the board's body and the edges' alike. */
export const BoardScope = {
  event_ids: Type.Optional(ids('Only these events, whatever their day. Without it, or empty (no filter, as every empty filter list): the events of `event_date`.')),
  event_date: Type.Optional(
    Type.String({ format: 'date', description: 'The day whose events to show, YYYY-MM-DD, read in `timezone`. Default: today. Ignored with `event_ids`.' }),
  ),
  timezone: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, default: 'UTC', description: 'IANA time zone in which `event_date` is read.', example: 'America/New_York' }),
  ),
  sport_id: Type.Optional(Id('Only events of this sport (404 when unknown).')),
  league_id: Type.Optional(Id('Only events of this league (404 when unknown).')),
  betting_market_ids: Type.Optional(ids('Only these markets.')),
  operator_ids: Type.Optional(ids('Only these books: prices, best, consensus and fair prices are then of these books alone.')),
  ...oddsRowFilters('false: main lines only'),
  odds_format: Type.Optional(Type.Enum(ODDS_FORMATS, { description: 'The format of every `price`: decimal (the default), american, fractional or implied_probability.' })),
  devig: Type.Optional(Type.Enum(DEVIG_METHODS, { description: 'The de-vig method of `fair`: multiplicative (the default), additive, power or shin.' })),
  include_deeplinks: IncludeDeepLinks,
  as_of: AsOf,
  ...eventKindsProperty,
};

export const BoardBody = Type.Object(
  { ...BoardScope, ...pagingProperties(BOARD_MAX_PAGE_SIZE) },
  // Today in New York: a day's board holds only what can still be bet, and New York's day still has games ahead late in UTC's.
  { additionalProperties: false, examples: [{ timezone: 'America/New_York', odds_format: 'american', page: 1, page_size: 20 }] },
);
export type BoardBody = Static<typeof BoardBody>;

export const BoardPage = PageOf(BoardItem, 'BoardPage');
