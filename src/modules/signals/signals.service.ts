import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { offsetOf, type Page, pageOf } from '../../platform/pagination.js';
import { utcDays } from '../../shared/date-range.js';
import { eventKindsOf } from '../../shared/event-kinds.js';
import { figureOrNull } from '../../shared/figures.js';
import { iso } from '../../shared/wire.js';
import type { KeyResolver } from '../references/index.js';
import { legsOf } from './signals.grading.js';
import { edgeBucketOf, EDGE_BUCKETS, type Interval, performanceOf, type PerformanceStats, type SignalResult } from './signals.performance.js';
import { type SignalQuery, signalsRepository, type SignalWithScope } from './signals.repository.js';
import type { PerformanceAnswer, PerformanceBody, SignalItem, SignalsBody } from './signals.schemas.js';
import type { SignalOutcome } from './signals.settle.js';

/** The detector's record, listed and summed up. */
export interface SignalsService {
  /** The signals a filter selects, newest first, paged (POST /v1/signals). */
  list(body: SignalsBody): Promise<Page<SignalItem>>;
  /** Their sums by type, sport, league, market, book and edge bucket (POST /v1/signals/performance). */
  performance(body: PerformanceBody): Promise<PerformanceAnswer>;
}

export function createSignalsService(deps: { db: Kysely<Schema>; clock: Clock; keys: KeyResolver }): SignalsService {
  const { db, clock, keys } = deps;
  /** The signals of a filter; a book filter is applied to the legs, after the query. */
  const select = async (body: PerformanceBody): Promise<SignalWithScope[]> => {
    const { start, end } = utcDays(body, clock.now());
    const query: SignalQuery = {
      types: body.types ?? null,
      sportId: await keys.scope('sport', { id: body.sport_id ?? null, key: body.sport_key ?? null }, { id: 'sport_id', key: 'sport_key' }),
      leagueId: await keys.scope('league', { id: body.league_id ?? null, key: body.league_key ?? null }, { id: 'league_id', key: 'league_key' }),
      marketIds: body.betting_market_ids ?? null,
      operatorIds: body.operator_ids ?? null,
      outcomes: body.outcomes ?? null,
      kinds: eventKindsOf(body.event_kinds),
      from: start,
      to: end,
    };
    const rows = await signalsRepository.find(db, query);
    const books = query.operatorIds;
    return books === null ? rows : rows.filter((row) => booksOf(row).some((book) => books.includes(book)));
  };
  return {
    async list(body) {
      const rows = await select(body);
      const start = offsetOf(body);
      return pageOf(rows.slice(start, start + body.page_size).map(itemOf), rows.length, body);
    },
    async performance(body) {
      return performanceAnswer(db, await select(body));
    },
  };
}

/** The books of a signal's legs, each once. */
const booksOf = (row: SignalWithScope): number[] => [...new Set(legsOf(row).flatMap((leg) => (leg.operator_id === null ? [] : [leg.operator_id])))];

const num = (value: number | string | null): number | null => (value === null ? null : Number(value));
const instant = (value: number | string | null): string | null => (value === null ? null : iso(Number(value)));

function itemOf(row: SignalWithScope): SignalItem {
  return {
    id: Number(row.id),
    type: row.type as SignalItem['type'],
    sport_id: row.sport_id,
    league_id: row.league_id,
    event_id: Number(row.event_id),
    betting_market_id: Number(row.betting_market_id),
    event_betting_market_position_id: num(row.selection_id),
    operator_id: num(row.operator_id),
    position: row.position,
    line: num(row.line),
    price_decimal: num(row.price),
    fair_probability: figureOrNull(num(row.fair_probability)),
    edge: figureOrNull(num(row.edge)),
    move_size: figureOrNull(num(row.move_size)),
    legs: legsOf(row).map((leg) => ({ event_betting_market_position_id: leg.selection_id, operator_id: leg.operator_id, price_decimal: leg.price, stake: figureOrNull(leg.stake) ?? 0 })),
    detected_at: iso(Number(row.detected_at)),
    ended_at: instant(row.ended_at),
    outcome: row.outcome as SignalItem['outcome'],
    profit: figureOrNull(num(row.profit)),
    closing_price: num(row.closing_price),
    clv_pct: figureOrNull(num(row.clv_pct)),
    graded_at: instant(row.graded_at),
  };
}

const resultOf = (row: SignalWithScope): SignalResult => ({ outcome: row.outcome as SignalOutcome | null, profit: num(row.profit), clv_pct: num(row.clv_pct) });

/** Stats as answers write them: rates, means and bounds to 6 decimals. */
function shown(stats: PerformanceStats): PerformanceStats {
  const interval = (i: Interval | null) => (i === null ? null : { low: figureOrNull(i.low) ?? 0, high: figureOrNull(i.high) ?? 0 });
  return {
    ...stats,
    hit_rate: figureOrNull(stats.hit_rate),
    hit_rate_interval: interval(stats.hit_rate_interval),
    roi: figureOrNull(stats.roi),
    roi_interval: interval(stats.roi_interval),
    mean_clv_pct: figureOrNull(stats.mean_clv_pct),
  };
}

type Group = PerformanceAnswer['by_type'][number];

/** The sums of some signals, overall and by each grouping, each group in the order of its id or key. */
async function performanceAnswer(db: Kysely<Schema>, rows: readonly SignalWithScope[]): Promise<PerformanceAnswer> {
  const groups = (keysOf: (row: SignalWithScope) => Array<number | string>) => {
    const by = new Map<number | string, SignalResult[]>();
    for (const row of rows) {
      for (const key of keysOf(row)) {
        const group = by.get(key) ?? [];
        group.push(resultOf(row));
        by.set(key, group);
      }
    }
    return by;
  };
  const named = async (table: 'sports' | 'leagues' | 'betting_markets' | 'operators', by: Map<number | string, SignalResult[]>): Promise<Group[]> => {
    const names = await signalsRepository.names(db, table, [...by.keys()].map(Number));
    return [...by.entries()].sort(([a], [b]) => Number(a) - Number(b)).map(([id, results]) => ({ id: Number(id), key: names.get(Number(id))?.key ?? String(id), name: names.get(Number(id))?.name ?? null, ...shown(performanceOf(results)) }));
  };
  const keyed = (order: readonly string[], by: Map<number | string, SignalResult[]>): Group[] =>
    order.flatMap((key) => {
      const results = by.get(key);
      return results === undefined ? [] : [{ id: null, key, name: null, ...shown(performanceOf(results)) }];
    });
  return {
    overall: shown(performanceOf(rows.map(resultOf))),
    by_type: keyed(['value', 'arbitrage', 'middle', 'steam', 'drop'], groups((row) => [row.type])),
    by_sport: await named('sports', groups((row) => [row.sport_id])),
    by_league: await named('leagues', groups((row) => [row.league_id])),
    by_market: await named('betting_markets', groups((row) => [Number(row.betting_market_id)])),
    by_book: await named('operators', groups(booksOf)),
    by_edge: keyed(
      EDGE_BUCKETS.map((bucket) => bucket.key),
      groups((row) => {
        const bucket = edgeBucketOf(num(row.edge));
        return bucket === undefined ? [] : [bucket];
      }),
    ),
  };
}
