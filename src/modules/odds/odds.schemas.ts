import { type Static, Type } from 'typebox';
import { eventKindsProperty } from '../../shared/event-kinds.js';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { ODDS_FORMATS } from '../../shared/odds-format.js';
import { Id, MAX_FILTER_ITEMS, NamedRef, SelectionId } from '../../shared/wire.js';

export const ODDS_MAX_PAGE_SIZE = 100;

export const Price = Type.Object(
  {
    american: Type.Integer({
      description: 'American (moneyline) odds: for d ≥ 2, +round((d−1)×100), the win on a 100 stake; otherwise −round(100/(d−1)), the stake that wins 100.',
      example: -110,
    }),
    decimal: Type.Number({ description: 'Decimal odds d: the total returned per unit staked, stake included. Always above 1.', example: 1.91 }),
    implied_probability: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'The chance the price implies, 1/d as a fraction from 0 to 1, to 4 decimals (bookmaker margin included).',
      example: 0.5236,
    }),
  },
  { additionalProperties: false, description: 'One price in three forms, all derived from the decimal price.' },
);

/** A price in the `odds_format` asked, one schema per JSON type (priceIn, src/shared/odds-format.ts). */
export const PRICE_FORMS = [
  Type.Integer({ description: '`odds_format: american`: a signed integer, e.g. 125 for 2.25 and −125 for 1.80.', example: 125 }),
  Type.Number({ description: '`odds_format: decimal`: the decimal price d (2.25); `implied_probability`: 1/d from 0 to 1, to 4 decimals (0.4444); `multiplier`: d (2.25); `percent`: 100/d to 2 decimals (44.44).', example: 2.25 }),
  Type.String({ pattern: '^[0-9]+/[0-9]+$', description: '`odds_format: fractional`: d − 1 as an exact reduced fraction, e.g. "5/4" for 2.25.', example: '5/4' }),
] as const;

/**
 * `price` is the v1 object when the request names no odds_format, so that clients written before
 * the formats existed read what they read before (decision 0111); with odds_format, the price in it.
 */
const PriceInFormat = Type.Union(
  [Price, ...PRICE_FORMS],
  {
    description:
      'The price. Without `odds_format` in the request: the object {american, decimal, implied_probability}, as before the formats existed. ' +
      'With it: the price in that format: a number (decimal, implied_probability), an integer (american) or a string (fractional).',
  },
);

/** An operator's link to the bet in one of its apps, on odds items and board prices, only when asked. */
const DeepLink = (app: string) =>
  Type.Optional(
    Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description:
        `Only with \`include_deeplinks: true\`: the operator's link to this bet in its ${app}, from its template (docs/data.md#deep-links); ` +
        'null when the operator has no template for it, or the template names a value the row lacks.',
    }),
  );

export const DeepLinkFields = {
  bet_web_deep_link_url: DeepLink('web site'),
  bet_ios_deep_link_url: DeepLink('iOS app'),
  bet_android_deep_link_url: DeepLink('Android app'),
};

/**
 * `as_of`: the answer as the price history knows it for an instant (decision 0317), read as the
 * history's `since` is. Pro and up (the policy's field rule marks it in the document).
 */
export const AsOf = Type.Optional(
  Type.String({
    format: 'date-time',
    description:
      'The answer as of this instant (ISO 8601 with a time zone), as the price history knows it now: each book\'s price open then, with its value then ' +
      '(docs/data.md#as-of-an-instant). Between the oldest change kept and now, else 422. `is_main`, `is_live`, deep links and selection ids are today\'s.',
  }),
);

/** The request field that asks for them. */
export const IncludeDeepLinks = Type.Optional(
  Type.Boolean({
    description: "Odditt's name: true adds each price's operator links, `bet_web_deep_link_url`, `bet_ios_deep_link_url` and `bet_android_deep_link_url`. Default false.",
  }),
);

/** What a price is of beyond market and position: on odds items and board items alike. */
export const OddsDetails = {
  player_id: Type.Union([Id('A player id.'), Type.Null()], {
    description: 'The player of a player prop (GET /v1/references/players), for markets whose entity_type is `player`; null otherwise. `position` still names the player.',
  }),
  event_period_id: Type.Union([Id('An event period id.'), Type.Null()], {
    description: 'The period priced (GET /v1/references/event-periods); null: the full game.',
  }),
  is_main: Type.Boolean({ description: 'True for the operator\'s main line of the market, false for an alternate line.' }),
  is_live: Type.Boolean({ description: 'True when the price was made while the event was live.' }),
};

/** What a competition's odds row adds (docs/data.md#competitions); a matchup's row has none of these fields. */
export const OutrightDetails = {
  participant_id: Type.Optional(Type.Integer({ description: "A competition's row: the participant it backs (GET /v1/competitions/{event_id}/participants)." })),
  rival_participant_ids: Type.Optional(
    Type.Array(Type.Integer(), { description: 'A matchup between participants: the rivals the participant must finish ahead of, ascending.' }),
  ),
  each_way: Type.Optional(
    Type.Object(
      {
        fraction: Type.Number({ description: 'The fraction of the odds a place pays (0.2 for 1/5).' }),
        places: Type.Integer({ description: 'The places paid.' }),
      },
      { additionalProperties: false, description: "The book's each-way terms for the price." },
    ),
  ),
};

export const OddsItem = Type.Object(
  {
    id: Type.Integer({ description: 'Odds id.' }),
    event_id: Type.Integer({ description: 'The event priced.' }),
    operator: NamedRef('The operator (sportsbook) offering the price.'),
    betting_market: NamedRef('The betting market priced.'),
    event_betting_market_position_id: SelectionId('The selection priced'),
    position: Type.String({
      description: 'The selection priced: `home`, `away`, `draw`, `over`, `under`, `yes`, `no`, or a team or player name (with over/under for their props).',
      example: 'home',
    }),
    line: Type.Union([Type.Number(), Type.Null()], {
      description: 'The handicap (spread) or total the selection is priced at, e.g. -3.5 or 221.5; null for markets without a line (moneyline).',
    }),
    price: PriceInFormat,
    price_decimal: Type.Number({
      description: 'The decimal price d, whatever `odds_format` asks: the stored figure every other form is computed from. Always above 1.',
      example: 1.91,
    }),
    status: Type.String({ description: '`open` (can be bet) or `suspended` (temporarily not offered), as the feed reports it.', example: 'open' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the operator last changed this price, ISO 8601, UTC.' }),
    ...OddsDetails,
    ...DeepLinkFields,
    ...OutrightDetails,
  },
  { title: 'Odds', additionalProperties: false },
);
export type OddsItem = Static<typeof OddsItem>;

const ids = (description: string) => Type.Array(Id('An id.'), { maxItems: MAX_FILTER_ITEMS, description });

/** The filters of what an odds row prices, shared by the odds list and the board; `altLines` says the default. */
export function oddsRowFilters(altLines: string) {
  return {
    player_ids: Type.Optional(ids('Only prices of these players\' props (by player_id).')),
    event_period_ids: Type.Optional(
      Type.Array(Type.Union([Id('An event period id.'), Type.Null()]), {
        maxItems: MAX_FILTER_ITEMS,
        description: 'Only prices of these periods; `null` in the list stands for the full game (rows without a period).',
      }),
    ),
    include_alt_lines: Type.Optional(Type.Boolean({ description: `Whether alternate lines (is_main false) are included. Default ${altLines}.` })),
  };
}

export const OddsByEventBody = Type.Object(
  {
    event_id: Id('The event whose odds to list.'),
    operator_ids: Type.Optional(ids('Only odds from these operators. Wins over operator_keys.')),
    operator_keys: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200, description: 'An operator key.' }), {
        maxItems: MAX_FILTER_ITEMS,
        description: 'Only odds from these operators, by key.',
      }),
    ),
    betting_market_ids: Type.Optional(ids('Only odds of these betting markets.')),
    ...oddsRowFilters('true: alternates are listed beside the main lines, as before the field existed'),
    include_deeplinks: IncludeDeepLinks,
    as_of: AsOf,
    ...eventKindsProperty,
    odds_format: Type.Optional(
      Type.Enum(ODDS_FORMATS, {
        description:
          'The format of each item\'s `price`: `decimal`, `american`, `fractional`, `implied_probability`, `multiplier` (the decimal payout) or `percent` (the implied probability in percent) (GET /v1/references/odds-format). ' +
          'Without it `price` is the object of all three numeric forms; `price_decimal` is always there.',
      }),
    ),
    ...pagingProperties(ODDS_MAX_PAGE_SIZE),
  },
  {
    additionalProperties: false,
    // The request "Try it out" in /docs sends: event 1 exists in every demo dataset, with odds.
    examples: [{ event_id: 1, odds_format: 'american', page: 1, page_size: 20 }],
  },
);
export type OddsByEventBody = Static<typeof OddsByEventBody>;

export const OddsPage = PageOf(OddsItem, 'OddsPage');
