import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { dateRangeProperties } from '../../shared/date-range.js';
import { EVENT_STATUSES } from '../../shared/event-status.js';
import { GRADED_OUTCOMES, GradeNumbers, OutrightGradeNumbers } from '../../shared/settlement/grade-numbers.schema.js';
import { NOT_GRADABLE_REASONS } from '../../shared/settlement/grading.js';
import { eventKindsProperty } from '../../shared/event-kinds.js';
import { DecimalPrice, Id, MAX_FILTER_ITEMS, NamedRef, SelectionId } from '../../shared/wire.js';

export const GRADED_MAX_PAGE_SIZE = 100;
/** Prices one CLV request may value. */
export const MAX_CLV_ITEMS = 100;

const nullable = <T extends ReturnType<typeof Type.Number>>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

export const GradedOdds = Type.Object(
  {
    odds_id: Type.Integer({ description: 'The odds row graded (its `id` in POST /v1/odds/upcoming-odds-by-event).' }),
    event_id: Type.Integer({ description: 'The event.' }),
    event_betting_market_position_id: SelectionId('The selection graded'),
    operator: NamedRef('The operator (sportsbook) that priced it.'),
    betting_market: NamedRef('The betting market.'),
    position: Type.String({ description: 'The selection, as the odds row names it.' }),
    line: Type.Union([Type.Number(), Type.Null()], { description: 'The row\'s line; null without one.' }),
    price_decimal: Type.Number({ description: 'The row\'s current decimal price.' }),
    outcome: Type.Union([Type.Enum(GRADED_OUTCOMES), Type.Null()], {
      description:
        '`won`, `lost`, `push`, `void`, `half_won`, `half_lost` (quarter lines), `dead_heat` (a competition\'s tie for the last paying places: `numbers.factor` of the stake paid); ' +
        'null when the row cannot be graded, and `reason` says why.',
    }),
    reason: Type.Union([Type.Enum(NOT_GRADABLE_REASONS), Type.Null()], {
      description:
        'Why there is no outcome (docs/data.md#results-and-grading): `unknown_rule` (the market has no settlement rule), `postponed`, `not_final`, `missing_period`, `missing_stat`, `invalid_selection`, `halves_disagree`, ' +
        '`missing_result` (a competition\'s participant without a finishing result); null with an outcome.',
    }),
    rule: Type.Union([Type.String(), Type.Null()], { description: 'The settlement rule applied (the market\'s); null when the market has none.' }),
    numbers: Type.Union([GradeNumbers, OutrightGradeNumbers, Type.Null()], {
      description: "The numbers used (a competition's: OutrightGradeNumbers); null without an outcome, and for a void from a cancelled matchup.",
    }),
    closing_price: nullable(Type.Number(), 'The row\'s last decimal price before the event started (from the price history); null when it had none.'),
    closing_line: nullable(Type.Number(), 'The row\'s line at that moment; null without one.'),
    graded_at: Type.String({ format: 'date-time', description: 'When this grade was made.' }),
    superseded_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When a later grade (after a correction of the results) replaced this one; null for the current grade.',
    }),
  },
  { title: 'GradedOdds', additionalProperties: false },
);
export type GradedOdds = Static<typeof GradedOdds>;

export const ResultsByEventBody = Type.Object(
  {
    event_id: Id('The event.'),
    include_superseded: Type.Optional(
      Type.Boolean({ default: false, description: 'Also the grades a correction of the results replaced (each with `superseded_at`), oldest first per row.' }),
    ),
    ...eventKindsProperty,
  },
  { additionalProperties: false, examples: [{ event_id: 1 }] },
);
export type ResultsByEventBody = Static<typeof ResultsByEventBody>;

export const EventResults = Type.Object(
  {
    event_id: Type.Integer({ description: 'The event.' }),
    status: Type.Enum(EVENT_STATUSES, { description: 'The event\'s status (docs/data.md#events).' }),
    home_score: Type.Union([Type.Integer(), Type.Null()], { description: 'The final (or current) home score; null without one.' }),
    away_score: Type.Union([Type.Integer(), Type.Null()], { description: 'The final (or current) away score; null without one.' }),
    periods: Type.Array(
      Type.Object(
        {
          event_period: NamedRef('The period (GET /v1/references/event-periods).'),
          home_score: Type.Integer({ description: 'Home side\'s score in the period.' }),
          away_score: Type.Integer({ description: 'Away side\'s score in the period.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The score of each period, by period id.' },
    ),
    statistics: Type.Array(
      Type.Object(
        {
          player_id: Type.Integer({ description: 'The player (GET /v1/references/players).' }),
          statistic: Type.String({ description: 'A player statistic key of the sport (GET /v1/references/player-statistics).' }),
          value: Type.Number({ description: 'The player\'s figure for the event.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The players\' statistics, by player then statistic. A player without any did not play.' },
    ),
    grades: Type.Array(GradedOdds, { description: 'The grade of every odds row of the event that has one, by odds id.' }),
  },
  { title: 'EventResults', additionalProperties: false },
);
export type EventResults = Static<typeof EventResults>;

const ids = (description: string) => Type.Array(Id('An id.'), { maxItems: MAX_FILTER_ITEMS, description });

export const GradedBody = Type.Object(
  {
    sport_id: Type.Optional(Id('Only events of this sport. Wins over sport_key.')),
    sport_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only events of the sport with this key, e.g. `basketball`.' })),
    league_id: Type.Optional(Id('Only events of this league. Wins over league_key.')),
    league_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only events of the league with this key (plain or qualified).' })),
    ...dateRangeProperties('the events\' start'),
    betting_market_ids: Type.Optional(ids('Only rows of these betting markets.')),
    outcomes: Type.Optional(Type.Array(Type.Enum(GRADED_OUTCOMES), { uniqueItems: true, maxItems: GRADED_OUTCOMES.length, description: 'Only these outcomes.' })),
    ...eventKindsProperty,
    ...pagingProperties(GRADED_MAX_PAGE_SIZE),
  },
  { additionalProperties: false, examples: [{ sport_key: 'basketball', outcomes: ['won', 'lost'], page_size: 20 }] },
);
export type GradedBody = Static<typeof GradedBody>;

export const GradedPage = PageOf(GradedOdds, 'GradedOddsPage');

export const ClvBody = Type.Object(
  {
    prices: Type.Array(
      Type.Object(
        {
          event_betting_market_position_id: Id('The selection bet on.'),
          operator_id: Id('The operator the price was taken at.'),
          price: DecimalPrice('The decimal price taken, above 1 and at most 1,000,001.'),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_CLV_ITEMS, description: `Prices to value against the close, at most ${MAX_CLV_ITEMS}.` },
    ),
    ...eventKindsProperty,
  },
  { additionalProperties: false, examples: [{ prices: [{ event_betting_market_position_id: 1, operator_id: 1, price: 2.1 }] }] },
);
export type ClvBody = Static<typeof ClvBody>;

export const ClvAnswer = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          event_betting_market_position_id: Type.Integer({ description: 'The selection, as asked.' }),
          operator_id: Type.Integer({ description: 'The operator, as asked.' }),
          price: Type.Number({ description: 'The price, as asked.' }),
          closing_price: nullable(Type.Number(), 'That operator\'s closing price for the selection; null when it had none.'),
          fair_closing_price: nullable(Type.Number(), 'The no-vig consensus closing price: the multiplicative de-vig of the books\' median closing prices of the market, to 6 decimals.'),
          clv_pct: nullable(Type.Number(), 'CLV% = (price ÷ fair_closing_price − 1) × 100, from the unrounded fair closing price, to 6 decimals; null without a fair closing price.'),
          reason: Type.Union([Type.String(), Type.Null()], {
            description: 'Why there is no CLV: `unknown_selection`, `not_closed` (the event has not started), `incomplete_market` (a side without closing prices) or a de-vig reason; null with one.',
          }),
        },
        { additionalProperties: false },
      ),
      { description: 'One answer per price, in the order asked.' },
    ),
  },
  { title: 'ClvAnswer', additionalProperties: false },
);
export type ClvAnswer = Static<typeof ClvAnswer>;
