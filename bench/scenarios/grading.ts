import { generateDemoDataset } from '../../src/modules/demo/generator/index.js';
import type { DemoCredentials } from '../run.js';
import { type LoopPhase, measured, type Probed } from './event-loop.js';
import { call } from './http.js';

const DAY_MS = 86_400_000;

type Dataset = ReturnType<typeof generateDemoDataset>;

/**
 * The final results of a whole demo day: every event of tomorrow (UTC) in the API's demo data,
 * each `final` with a score and statistics for every player its props name, so that every
 * selection of every event is graded. The demo of the same seed and UTC day has the same events
 * and odds whatever the hour it was made, so the bench regenerates them rather than reading them.
 */
export function finalDay(now: number, status: 'final' | 'live' = 'final'): { events: Dataset['events']; odds: number } {
  const demo = generateDemoDataset({ now });
  const start = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
  const day = demo.events.filter((e) => {
    const at = Date.parse(e.start_time);
    return at >= start && at < start + DAY_MS;
  });
  const ids = new Set(day.map((e) => e.id));
  const statOf = new Map(demo.betting_markets.map((m) => [m.id, m.settlement?.stat ?? null]));
  const statistics = new Map<number, Map<string, { player_id: number; statistic: string; value: number }>>();
  let odds = 0;
  for (const row of demo.odds) {
    if (!ids.has(row.event_id)) continue;
    odds++;
    const stat = statOf.get(row.betting_market_id);
    if (row.player_id === undefined || row.player_id === null || !stat) continue;
    const own = statistics.get(row.event_id) ?? new Map();
    // Around the line, so that overs and unders both win somewhere.
    own.set(`${row.player_id}:${stat}`, { player_id: row.player_id, statistic: stat, value: Math.max(0, Math.round((row.line ?? 0.5) + (row.id % 3) - 1)) });
    statistics.set(row.event_id, own);
  }
  const events = day.map((e) => ({
    ...e,
    status,
    home_score: 1 + (e.id % 7),
    away_score: e.id % 5,
    statistics: [...(statistics.get(e.id)?.values() ?? [])],
  }));
  return { events, odds };
}

/**
 * Imports the final results of a demo day and measures the import with its grading (the answer
 * comes once every event is graded), while the probe records the event-loop delay and /healthz is
 * polled. Goal: event-loop delay p99 at most 20 ms: grading must not hold reads up. With
 * `status: 'live'` the same import (the same scores and statistics) grades nothing: the control
 * that tells the import's own cost from grading's.
 */
export async function gradingDay(processes: Probed, demo: DemoCredentials, adminToken: string, status: 'final' | 'live' = 'final'): Promise<LoopPhase> {
  const { events, odds } = finalDay(Date.now(), status);
  const { baseUrl } = processes;
  const { access_token } = await call<{ access_token: string }>(baseUrl, 'POST', '/v1/auth/login', { headers: { 'x-api-key': demo.api_key } });
  const read = { method: 'POST' as const, path: '/v1/odds/upcoming-odds-by-event', body: { event_id: events[0]?.id ?? 1 } };
  const name = status === 'final' ? `grading a demo day (${events.length} events, ${odds} odds rows)` : `the same import with the events live, nothing graded (the control)`;
  return measured(processes, name, async () => {
    let reading = true;
    const latencies: number[] = [];
    // A client reading all along, as reads go on while a feed settles a day.
    const reads = (async () => {
      while (reading) {
        const begun = performance.now();
        await call(baseUrl, read.method, read.path, { body: read.body, headers: { authorization: `Bearer ${access_token}` } });
        latencies.push(performance.now() - begun);
      }
    })();
    const started = performance.now();
    const answer = await call<{ graded?: { events: number; grades: number } }>(baseUrl, 'POST', '/admin/v1/import', {
      body: { events },
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const seconds = (performance.now() - started) / 1000;
    reading = false;
    await reads;
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
    return (
      `import and grading ${seconds.toFixed(2)} s: ${answer.graded?.events ?? 0} events, ${answer.graded?.grades ?? 0} grades; ` +
      `reads meanwhile ${latencies.length}, p99 ${p99.toFixed(1)} ms, slowest ${(latencies.at(-1) ?? 0).toFixed(1)} ms`
    );
  });
}
