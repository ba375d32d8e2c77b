import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { dateRangeProperties } from '../../shared/date-range.js';
import { eventKindsProperty } from '../../shared/event-kinds.js';
import { Id, MAX_FILTER_ITEMS } from '../../shared/wire.js';
import { EDGE_BUCKETS } from './signals.performance.js';

export const SIGNALS_MAX_PAGE_SIZE = 100;
export const SIGNAL_TYPES = ['value', 'arbitrage', 'middle', 'steam', 'drop'] as const;
export const SIGNAL_OUTCOMES = ['won', 'lost', 'push', 'void'] as const;
/** An outcome filter: one of the outcomes, or `pending` for a signal not graded yet. */
const OUTCOME_FILTERS = [...SIGNAL_OUTCOMES, 'pending'] as const;

const ids = (description: string) => Type.Array(Id('An id.'), { maxItems: MAX_FILTER_ITEMS, uniqueItems: true, description });
const orNull = <T extends ReturnType<typeof Type.Number | typeof Type.Integer | typeof Type.String>>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

const filterProperties = {
  types: Type.Optional(Type.Array(Type.Enum(SIGNAL_TYPES), { uniqueItems: true, maxItems: SIGNAL_TYPES.length, description: 'Only signals of these types.' })),
  sport_id: Type.Optional(Id('Only events of this sport. Wins over sport_key.')),
  sport_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only events of the sport with this key, e.g. `basketball`.' })),
  league_id: Type.Optional(Id('Only events of this league. Wins over league_key.')),
  league_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only events of the league with this key (plain or qualified).' })),
  betting_market_ids: Type.Optional(ids('Only signals of these betting markets.')),
  operator_ids: Type.Optional(ids('Only signals with a leg at one of these operators (a steam move: of its selection, at any book).')),
  ...dateRangeProperties('the signals\' detection (`detected_at`)'),
  outcomes: Type.Optional(Type.Array(Type.Enum(OUTCOME_FILTERS), { uniqueItems: true, maxItems: OUTCOME_FILTERS.length, description: 'Only these outcomes; `pending`: not graded yet.' })),
  ...eventKindsProperty,
};

export const SignalsBody = Type.Object(
  { ...filterProperties, ...pagingProperties(SIGNALS_MAX_PAGE_SIZE) },
  { additionalProperties: false, examples: [{ page_size: 20 }] },
);
export type SignalsBody = Static<typeof SignalsBody>;

export const PerformanceBody = Type.Object(filterProperties, { additionalProperties: false, examples: [{ types: ['value', 'arbitrage'] }] });
export type PerformanceBody = Static<typeof PerformanceBody>;

export const SignalItem = Type.Object(
  {
    id: Type.Integer({ description: 'The signal.' }),
    type: Type.Enum(SIGNAL_TYPES, { description: '`value`, `arbitrage`, `middle`, `steam` or `drop` (docs/data.md#signals).' }),
    sport_id: Type.Integer({ description: 'The event\'s sport.' }),
    league_id: Type.Integer({ description: 'The event\'s league.' }),
    event_id: Type.Integer({ description: 'The event.' }),
    betting_market_id: Type.Integer({ description: 'The betting market.' }),
    event_betting_market_position_id: orNull(Type.Integer(), 'The selection bet on; null for a signal of several legs (see `legs`).'),
    operator_id: orNull(Type.Integer(), 'The book whose price it is; null for several legs or a steam move of several books.'),
    position: orNull(Type.String(), 'The selection, as the odds row names it; null for several legs.'),
    line: orNull(Type.Number(), 'The line; null without one.'),
    price_decimal: orNull(Type.Number(), 'The decimal price when it was detected; null for several legs.'),
    fair_probability: orNull(Type.Number(), 'A value bet\'s no-vig consensus probability then, to 6 decimals; null for other types.'),
    edge: orNull(Type.Number(), 'A fraction, to 6 decimals: a value bet\'s EV% ÷ 100, an arbitrage\'s or middle\'s profit% ÷ 100; null for a move.'),
    move_size: orNull(Type.Number(), 'A move\'s size: implied-probability points (steam) or percent (drop); null for other types.'),
    legs: Type.Array(
      Type.Object(
        {
          event_betting_market_position_id: Type.Integer({ description: 'The selection.' }),
          operator_id: orNull(Type.Integer(), 'The book; null for a move of several books.'),
          price_decimal: Type.Number({ description: 'The decimal price.' }),
          stake: Type.Number({ description: 'The share of the one unit staked on this leg, to 6 decimals; the legs\' add up to 1.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The bets the signal stands for, graded as one unit split by `stake`.' },
    ),
    detected_at: Type.String({ format: 'date-time', description: 'When the appearance started: its market\'s newest change then.' }),
    ended_at: orNull(Type.String({ format: 'date-time' }), 'When it no longer held; null while it holds (or until its market changes again).'),
    outcome: Type.Union([Type.Enum(SIGNAL_OUTCOMES), Type.Null()], { description: '`won`, `lost`, `push` or `void`; null until every leg is graded.' }),
    profit: orNull(Type.Number(), 'What one unit staked made, to 6 decimals: won at 2.10 is 1.1, lost is −1, push and void 0; null until graded.'),
    closing_price: orNull(Type.Number(), 'The book\'s closing price of the selection (one leg); null otherwise or without one.'),
    clv_pct: orNull(Type.Number(), 'CLV% against the no-vig consensus close (legs weighted by stake), to 6 decimals; null until graded or without a close.'),
    graded_at: orNull(Type.String({ format: 'date-time' }), 'When the grade was last written (a re-grade rewrites it).'),
  },
  { title: 'Signal', additionalProperties: false },
);
export type SignalItem = Static<typeof SignalItem>;

export const SignalsPage = PageOf(SignalItem, 'SignalsPage');

const Interval = (description: string) =>
  Type.Union([Type.Object({ low: Type.Number({ description: 'The lower bound.' }), high: Type.Number({ description: 'The upper bound.' }) }, { additionalProperties: false }), Type.Null()], { description });

const statsProperties = {
  count: Type.Integer({ description: 'Signals.' }),
  won: Type.Integer({ description: 'Graded won.' }),
  lost: Type.Integer({ description: 'Graded lost.' }),
  push: Type.Integer({ description: 'Graded push: the stake back.' }),
  void: Type.Integer({ description: 'Graded void: every leg void.' }),
  pending: Type.Integer({ description: 'Not graded yet.' }),
  hit_rate: orNull(Type.Number(), 'won ÷ (won + lost), to 6 decimals; null without either.'),
  hit_rate_interval: Interval('Its 95% Wilson score interval, to 6 decimals; null without won or lost.'),
  roi: orNull(Type.Number(), 'Mean profit per unit staked over the won, lost and push signals (flat stakes, voids left out), to 6 decimals.'),
  roi_interval: Interval('roi ± 1.96 × s ÷ √n (s the sample standard deviation of the profits), to 6 decimals; null below 2 signals.'),
  mean_clv_pct: orNull(Type.Number(), 'Mean CLV% of the signals that have one, to 6 decimals.'),
  clv_count: Type.Integer({ description: 'Signals with a CLV%.' }),
};

export const PerformanceStats = Type.Object(statsProperties, { title: 'SignalPerformance', additionalProperties: false, description: 'The sums of every signal the filters select.' });

const Group = (description: string) =>
  Type.Array(
    Type.Object(
      {
        id: orNull(Type.Integer(), 'The id of what is grouped by; null for types and edge buckets.'),
        key: Type.String({ description: 'Its key: the type, the reference\'s key, or the edge bucket.' }),
        name: orNull(Type.String(), 'Its name; null for types and edge buckets.'),
        ...statsProperties,
      },
      { additionalProperties: false },
    ),
    { description },
  );

export const PerformanceAnswer = Type.Object(
  {
    overall: PerformanceStats,
    by_type: Group('By signal type.'),
    by_sport: Group('By the event\'s sport.'),
    by_league: Group('By the event\'s league.'),
    by_market: Group('By betting market.'),
    by_book: Group('By book: a signal counts once under each book of its legs.'),
    by_edge: Group(`By edge bucket (${EDGE_BUCKETS.map((b) => b.key).join(', ')}, each from its low bound included); moves have no edge and are in none.`),
  },
  { title: 'SignalsPerformance', additionalProperties: false },
);
export type PerformanceAnswer = Static<typeof PerformanceAnswer>;
