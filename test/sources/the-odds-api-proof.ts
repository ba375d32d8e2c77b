import { expect } from 'vitest';
import type { Caller } from '../helpers/harness.js';
import type { Change } from '../history/fixture.js';
import type { Grade } from './football-data-proof.js';
import { outcomeOf } from './football-data-expected.js';
import { type OddsApiEvent, type OddsApiQuote, type OddsApiScore, quoteKey, quotesOf, scoreOf } from './the-odds-api-expected.js';

/**
 * Checks through the public API that loaded answers of The Odds API say what their JSON says:
 * each selection's price history (a point per change, stamped by its market's last_update), each
 * scores item's status and score, and each odds row's grade and closing price. The expected
 * figures come from the-odds-api-expected.ts, never from the service's reader.
 */

/** The answers loaded, in the order they were: each odds answer's events (a snapshot's `data`), then the scores. */
export interface Loaded {
  odds: ReadonlyArray<readonly OddsApiEvent[]>;
  scores: readonly OddsApiScore[];
  /** How each loaded price reads back as a decimal (American answers convert). */
  decimal: (price: number) => number;
}

/** Per event and selection, the points that changed its price, in the order loaded: [at, price]. */
function expectedHistory(loaded: Loaded): Map<string, Map<string, Array<[string, number]>>> {
  const byEvent = new Map<string, Map<string, Array<[string, number]>>>();
  for (const answer of loaded.odds) {
    for (const q of quotesOf(answer)) {
      const selections = byEvent.get(q.event) ?? new Map<string, Array<[string, number]>>();
      byEvent.set(q.event, selections);
      const points = selections.get(quoteKey(q)) ?? [];
      selections.set(quoteKey(q), points);
      const last = points.at(-1);
      const price = loaded.decimal(q.price);
      if (last === undefined || (Date.parse(q.at) > Date.parse(last[0]) && price !== last[1])) points.push([q.at, price]);
    }
  }
  return byEvent;
}

/** The id of our record a source key names, through the mapping API. */
export async function entityOf(admin: Caller, entityType: string, externalId: string): Promise<number> {
  const found = await admin.ok<{ data: Array<{ entity_id: number }> }>(`/admin/v1/mapping/external-ids?source=the-odds-api&entity_type=${entityType}&external_id=${encodeURIComponent(externalId)}`);
  expect(found.data, `${entityType} ${externalId}`).toHaveLength(1);
  return found.data[0]?.entity_id ?? 0;
}

export async function proveTheOddsApi(api: Caller, admin: Caller, loaded: Loaded, names: { operators: Map<number, string>; markets: Map<number, string> }): Promise<void> {
  const history = expectedHistory(loaded);
  for (const [eventKey, selections] of history) {
    const eventId = await entityOf(admin, 'event', eventKey);
    const changes: Change[] = [];
    for (let page = 1; ; page++) {
      const answer = await api.page<Change>('/v1/odds/history-by-event', { event_id: eventId, page, page_size: 100 });
      changes.push(...answer.results);
      if (page >= answer.total_pages) break;
    }
    const got = new Map<string, Array<[string, number]>>();
    for (const c of changes) {
      const key = quoteKey({ book: names.operators.get(c.operator_id) ?? '?', market: (names.markets.get(c.betting_market_id) ?? '?') as OddsApiQuote['market'], position: c.position, line: c.line.to });
      got.set(key, [...(got.get(key) ?? []), [c.changed_at, c.price_decimal.to]]);
    }
    expect(new Set(got.keys()), eventKey).toEqual(new Set(selections.keys()));
    for (const [key, points] of selections) {
      const seen = got.get(key) ?? [];
      expect(seen.map(([at]) => at), `${eventKey} ${key}`).toEqual(points.map(([at]) => at));
      seen.forEach(([, price], i) => expect(price, `${eventKey} ${key} #${i}`).toBeCloseTo(points[i]?.[1] ?? NaN, 12));
    }
  }

  for (const item of loaded.scores) {
    const eventId = await entityOf(admin, 'event', item.id);
    const score = scoreOf(item);
    const results = await api.ok<{ status: string; home_score: number | null; away_score: number | null; grades: Grade[] }>('/v1/results/by-event', { event_id: eventId });
    const status = item.completed ? 'final' : score === undefined ? 'scheduled' : 'live';
    expect([results.status, results.home_score, results.away_score], item.id).toEqual([status, ...(score ?? [null, null])]);
    const selections = history.get(item.id);
    if (status !== 'final' || score === undefined || selections === undefined) {
      expect(results.grades.filter((g) => g.outcome !== null), `${item.id}: no grade before the final score`).toEqual([]);
      continue;
    }
    // Every odds row graded on the final score, its closing price its last price (all were priced before the start).
    const grades = new Map(results.grades.map((g) => [quoteKey({ book: g.operator.key, market: g.betting_market.key as OddsApiQuote['market'], position: g.position, line: g.line }), g]));
    expect(new Set(grades.keys()), item.id).toEqual(new Set(selections.keys()));
    for (const [key, points] of selections) {
      const [, market, position, line] = key.split('/');
      const last = points.at(-1)?.[1] ?? NaN;
      const grade = grades.get(key);
      expect(grade?.outcome, `${item.id} ${key}`).toBe(outcomeOf({ market: market as 'total', position: position ?? '', line: line === '' ? null : Number(line) }, score));
      expect(grade?.closing_price ?? NaN, `${item.id} ${key}`).toBeCloseTo(last, 12);
    }
  }
}
