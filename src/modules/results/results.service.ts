import type { Kysely } from 'kysely';
import { eventKindsOf } from '../../shared/event-kinds.js';
import { EVENT_KINDS, type EventKind } from '../../platform/db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import { utcDays } from '../../shared/date-range.js';
import { idSet, keySet } from '../../shared/filters.js';
import { figure } from '../../shared/figures.js';
import { closingLineValue } from '../../shared/pricing/edges.js';
import type { Quote } from '../../shared/pricing/consensus.js';
import { subjectKeyOf } from '../odds/index.js';
import type { KeyResolver } from '../references/index.js';
import type { Closing } from './grading.repository.js';
import { type ClvSelection, createResultsRepository, type MarketOddsRow, type ResultsRepository } from './results.repository.js';
import type { ClvAnswer, ClvBody, EventResults, GradedBody, GradedOdds, ResultsByEventBody } from './results.schemas.js';

/** Results: graded odds as a list and by event, closing line value, and the grades the settled stream sends. */
export interface ResultsService {
  /** Current grades with an outcome in a range of days, as a paged list (POST /v1/results/graded). */
  graded: GradedList;
  /** An event's scores, periods, statistics and grades; 404 for no such event. */
  byEvent(body: ResultsByEventBody): Promise<EventResults>;
  /** Each price against the no-vig consensus of the books' closing prices of its market. */
  clv(body: ClvBody): Promise<ClvAnswer>;
  /** Grades as the odds stream's `settled` events read them (the composition root hands these to the stream). */
  settled: {
    /** The newest grade's id, 0 when there is none: where a settled stream starts. */
    lastId(): Promise<number>;
    /** Grades with an outcome written after an id, in id order, with their event's league; and the newest id read. */
    after: ResultsRepository['gradesAfter'];
  };
}

export interface ResultsServiceDeps {
  db: Kysely<Schema>;
  clock: Clock;
  keys: KeyResolver;
}

type GradedList = ListSource<GradedFilters, GradedOdds> & { filters(body: GradedBody): GradedFilters };

type IdOrKey = { id: number } | { key: string } | null;

/** The graded list's filters: UTC instants [start, end) of the events' start, the scope, markets and outcomes (sorted). */
export interface GradedFilters {
  start: number;
  end: number;
  sport: IdOrKey;
  league: IdOrKey;
  m: number[] | null;
  o: string[] | null;
  /** `event_kinds` (default matchups only). */
  k: EventKind[];
}

const idOrKey = (id: number | undefined, key: string | undefined): IdOrKey => (id !== undefined ? { id } : key !== undefined ? { key: key.toLowerCase() } : null);

type ClvResult = ClvAnswer['results'][number];

export function createResultsService(deps: ResultsServiceDeps): ResultsService {
  const repository = createResultsRepository(deps.db);
  return {
    graded: gradedList(deps, repository),
    byEvent: async (body) => {
      const results = await repository.event(body.event_id, body.include_superseded ?? false, eventKindsOf(body.event_kinds));
      if (results === undefined) throw new ApiError('NOT_FOUND', `no event with event_id ${body.event_id}`);
      return results;
    },
    clv: (body) => clv(repository, deps.clock.now(), body.prices, eventKindsOf(body.event_kinds)),
    settled: { lastId: () => repository.lastGradeId(), after: (afterId, limit) => repository.gradesAfter(afterId, limit) },
  };
}

function gradedList({ clock, keys }: ResultsServiceDeps, repository: ResultsRepository): GradedList {
  return {
    name: 'graded',
    filters(body) {
      const { start, end } = utcDays(body, clock.now());
      const o = keySet(body.outcomes) ?? null;
      return { start, end, sport: idOrKey(body.sport_id, body.sport_key), league: idOrKey(body.league_id, body.league_key), m: idSet(body.betting_market_ids) ?? null, o, k: eventKindsOf(body.event_kinds) };
    },
    async ids({ start, end, sport, league, m, o, k }) {
      const sportId = await keys.scope('sport', sport ?? {}, { id: 'sport_id', key: 'sport_key' });
      const leagueId = await keys.scope('league', league ?? {}, { id: 'league_id', key: 'league_key' });
      return repository.gradedIds({ sportId, leagueId, start, end, marketIds: m ?? undefined, outcomes: o ?? undefined, kinds: k });
    },
    items: (ids) => repository.items(ids),
  };
}

type ClvAsked = ClvBody['prices'][number];

/**
 * Each price against the close, as POST /v1/results/clv answers (the signals' grader values the
 * prices it recorded with it, docs/data.md#signals).
 */
export function closingLineValues(db: Kysely<Schema>, now: number, prices: ClvBody['prices']): Promise<ClvAnswer['results']> {
  // Every kind: the signals' own record, narrowed by kind when it is read.
  return clv(createResultsRepository(db), now, prices, EVENT_KINDS).then((answer) => answer.results);
}

/**
 * Each price against the no-vig consensus of the books' closing prices of its market: the
 * board's market (the same event, market, period and subject: subjectKeyOf) at the size of the
 * selection's line.
 */
async function clv(repository: ResultsRepository, now: number, prices: ClvBody['prices'], kinds: readonly string[]): Promise<ClvAnswer> {
  // A competition's selection is unknown unless `event_kinds` asks for competitions, as its odds are.
  const selections = await repository.selections([...new Set(prices.map((p) => p.event_betting_market_position_id))], kinds);
  // Closed once started: by the clock, or by the feed when a game began early.
  const closed = (selection: ClvSelection) => now >= selection.start || selection.status === 'live' || selection.status === 'final';
  // The closing prices of every closed event asked of, in one read, and each market's rows once: a
  // grader's batch asks of many prices of few events, and each event's history was read per price.
  const closedEvents = [...new Set([...selections.values()].filter(closed).map((selection) => selection.eventId))];
  const closing = closedEvents.length === 0 ? new Map<number, Closing>() : await repository.closing(closedEvents);
  const markets = new Map<string, Promise<MarketOddsRow[]>>();
  const rowsOf = (selection: ClvSelection) => {
    const key = `${selection.eventId}|${selection.marketId}`;
    const rows = markets.get(key) ?? repository.marketRows(selection.eventId, selection.marketId);
    markets.set(key, rows);
    return rows;
  };
  const results: ClvResult[] = [];
  for (const asked of prices) {
    const answer = (rest: Partial<ClvResult>): ClvResult => ({ ...asked, closing_price: null, fair_closing_price: null, clv_pct: null, reason: null, ...rest });
    const selection = selections.get(asked.event_betting_market_position_id);
    if (selection === undefined) results.push(answer({ reason: 'unknown_selection' }));
    else if (!closed(selection)) results.push(answer({ reason: 'not_closed' }));
    else results.push(answer(closingValue(asked, selection, await rowsOf(selection), closing)));
  }
  return { results };
}

/** One price's closing price, fair closing price and CLV%, or the reason there are none, from its market's rows and their closing prices. */
function closingValue(asked: ClvAsked, selection: ClvSelection, rows: readonly MarketOddsRow[], closing: ReadonlyMap<number, Closing>): Partial<ClvResult> {
  const ownRows = rows.filter((r) => r.selection_id === asked.event_betting_market_position_id);
  // The subject as the board reads it from the rows (a row's player id), else from the stored key.
  const subject = subjectKeyOf(ownRows.find((r) => r.operator_id === asked.operator_id) ?? ownRows[0] ?? selection.key);
  const size = selection.line === null ? null : Math.abs(selection.line);
  // The market's outcomes: one list of closing quotes per position.
  const outcomes = new Map<string, Quote<number>[]>();
  let own: number | null = null;
  for (const row of rows) {
    if (subjectKeyOf(row) !== subject || (row.line === null ? null : Math.abs(row.line)) !== size) continue;
    const close = closing.get(row.id);
    const key = row.position.trim().toLowerCase();
    const quotes = outcomes.get(key) ?? [];
    outcomes.set(key, quotes);
    if (close === undefined) continue;
    quotes.push({ book: row.operator_id, price: close.price });
    if (row.selection_id === asked.event_betting_market_position_id && row.operator_id === asked.operator_id) own = close.price;
  }
  const keysInOrder = [...outcomes.keys()].sort();
  const index = keysInOrder.indexOf(selection.key.position.trim().toLowerCase());
  const value = closingLineValue(asked.price, keysInOrder.map((k) => outcomes.get(k) ?? []), index);
  return value.ok ? { closing_price: own, fair_closing_price: figure(value.fairClosingPrice), clv_pct: figure(value.clvPct) } : { closing_price: own, reason: value.reason };
}
