import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import { utcDays } from '../../shared/date-range.js';
import { idSet } from '../../shared/filters.js';
import { figure } from '../../shared/figures.js';
import { closingLineValue } from '../../shared/pricing/edges.js';
import type { Quote } from '../../shared/pricing/consensus.js';
import { subjectKeyOf } from '../odds/index.js';
import type { KeyResolver } from '../references/index.js';
import { closingOf } from './grading.js';
import { createResultsRepository } from './results.repository.js';
import type { ClvAnswer, ClvBody, EventResults, GradedBody, GradedOdds, ResultsByEventBody } from './results.schemas.js';

type IdOrKey = { id: number } | { key: string } | null;

/** The graded list's filters: UTC instants [start, end) of the events' start, the scope, markets and outcomes (sorted). */
export interface GradedFilters {
  start: number;
  end: number;
  sport: IdOrKey;
  league: IdOrKey;
  m: number[] | null;
  o: string[] | null;
}

const idOrKey = (id: number | undefined, key: string | undefined): IdOrKey => (id !== undefined ? { id } : key !== undefined ? { key: key.toLowerCase() } : null);

type ClvResult = ClvAnswer['results'][number];

export function createResultsService(deps: { db: Kysely<Schema>; clock: Clock; keys: KeyResolver }) {
  const { db, clock, keys } = deps;
  const repository = createResultsRepository(db);

  const graded: ListSource<GradedFilters, GradedOdds> & { filters(body: GradedBody): GradedFilters } = {
    name: 'graded',
    filters(body) {
      const { start, end } = utcDays(body, clock.now());
      const outcomes = body.outcomes === undefined ? null : [...new Set(body.outcomes)].sort();
      return { start, end, sport: idOrKey(body.sport_id, body.sport_key), league: idOrKey(body.league_id, body.league_key), m: idSet(body.betting_market_ids) ?? null, o: outcomes };
    },
    async ids({ start, end, sport, league, m, o }) {
      const sportId = await keys.scope('sport', sport ?? {}, { id: 'sport_id', key: 'sport_key' });
      const leagueId = await keys.scope('league', league ?? {}, { id: 'league_id', key: 'league_key' });
      return repository.gradedIds({ sportId, leagueId, start, end, marketIds: m ?? undefined, outcomes: o ?? undefined });
    },
    items: (ids) => repository.items(ids),
  };

  async function byEvent(body: ResultsByEventBody): Promise<EventResults> {
    const results = await repository.event(body.event_id, body.include_superseded ?? false);
    if (results === undefined) throw new ApiError('NOT_FOUND', `no event with event_id ${body.event_id}`);
    return results;
  }

  /**
   * Each price against the no-vig consensus of the books' closing prices of its market: the
   * board's market (the same event, market, period and subject: subjectKeyOf) at the size of the
   * selection's line.
   */
  async function clv(body: ClvBody): Promise<ClvAnswer> {
    const now = clock.now();
    const selections = await repository.selections([...new Set(body.prices.map((p) => p.event_betting_market_position_id))]);
    const closings = new Map<number, Awaited<ReturnType<typeof closingOf>>>();
    const results: ClvResult[] = [];
    for (const asked of body.prices) {
      const answer = (rest: Partial<ClvResult>): ClvResult => ({ ...asked, closing_price: null, fair_closing_price: null, clv_pct: null, reason: null, ...rest });
      const selection = selections.get(asked.event_betting_market_position_id);
      if (selection === undefined) {
        results.push(answer({ reason: 'unknown_selection' }));
        continue;
      }
      // Closed once started: by the clock, or by the feed when a game began early.
      if (now < selection.start && selection.status !== 'live' && selection.status !== 'final') {
        results.push(answer({ reason: 'not_closed' }));
        continue;
      }
      const closing = closings.get(selection.eventId) ?? (await closingOf(db, [selection.eventId]));
      closings.set(selection.eventId, closing);
      const rows = await repository.marketRows(selection.eventId, selection.marketId);
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
      results.push(
        value.ok
          ? answer({ closing_price: own, fair_closing_price: figure(value.fairClosingPrice), clv_pct: figure(value.clvPct) })
          : answer({ closing_price: own, reason: value.reason }),
      );
    }
    return { results };
  }

  /** Grades as the odds stream's `settled` events read them (the composition root hands these to the stream). */
  const settled = { lastId: () => repository.lastGradeId(), after: (afterId: number, limit: number) => repository.gradesAfter(afterId, limit) };

  return { graded, byEvent, clv, settled };
}

export type ResultsService = ReturnType<typeof createResultsService>;
