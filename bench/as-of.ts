import type { BenchDatabase } from './databases.js';
import { type Measured, type Scenario, untilIdle } from './load.js';
import type { BenchKit } from './scale-out.js';
import { bearerFor } from './scenarios/data.js';

/** The goal: an as_of board page at no less than half the current board page's rate. */
const RATE_GOAL = 0.5;

/**
 * `--only as-of`: in one run, on the demo slate, a board page of 100 now, the same page as of an
 * instant inside the history (both cached per data version, as a client repeating a request
 * meets them), and an as_of page at a new instant every request (each computed from the history:
 * its ids with their rows' states, one index step per row in the statement that reads them), with
 * each one's server CPU per request. The API first works through the demo's history, idle before
 * the first measure.
 */
export async function asOfGroup(kit: BenchKit, databases: BenchDatabase[], scale: number): Promise<void> {
  for (const database of databases) {
    await kit.withApi(
      `as-of-${database}`,
      database,
      {},
      async (url, demo, api) => {
        // The demo's history worked through first: the processors' start-up work is no request's.
        await untilIdle(api.child.pid);
        const authorization = await bearerFor(url, demo);
        const { oldest, now } = await boundsOf(url, authorization);
        // A minute before now: the demo's slate of today is priced then (its openings are older), so the page is full.
        const middle = Math.max(oldest, now - 60_000);
        const board = (name: string, instants: number[]): Scenario => ({
          name,
          requests: (instants.length === 0 ? [undefined] : instants).map((at) => ({
            method: 'POST' as const,
            path: '/v1/odds/board',
            headers: { authorization, 'content-type': 'application/json' },
            body: JSON.stringify(at === undefined ? { page_size: 100 } : { page_size: 100, as_of: new Date(at).toISOString() }),
          })),
        });
        // Every request of every connection one ms earlier than the one before: never a cached page.
        let next = middle;
        const pinned = board('POST odds/board, page of 100, as_of at a new instant each request (2 connections)', [middle]);
        const cold: Scenario = {
          ...pinned,
          // Each request computed afresh: few connections, so that none waits past the load tool's timeout.
          connections: 2,
          requests: pinned.requests.map((request) => ({
            ...request,
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ page_size: 100, as_of: new Date((next -= 1)).toISOString() }) }),
          })),
        };
        const measured = await kit.runGroup(`as_of (${database})`, url, [
          board('POST odds/board, page of 100, now', []),
          board('POST odds/board, page of 100, as_of', [middle]),
          cold,
        ]);
        const [current, past, fresh] = measured.map((m: Measured) => m.reqPerSec);
        const cpu = measured.map((m: Measured) => `${((m.cpuPerRequest ?? Number.NaN) / 1000).toFixed(2)} ms`).join(', ');
        const ratio = (current ?? 0) > 0 ? (past ?? 0) / (current ?? 1) : 0;
        kit.note(
          `as_of board page (${database}, as_of ${new Date(middle).toISOString()}, a minute before now, history from ${new Date(oldest).toISOString()}): ` +
            `now ${Math.round(current ?? 0)} req/s, as_of ${Math.round(past ?? 0)} req/s (${ratio.toFixed(2)}×, goal ≥ ${RATE_GOAL}×${ratio >= RATE_GOAL ? '' : ' — missed'}); ` +
            `a new instant each request ${Math.round(fresh ?? 0)} req/s (${((fresh ?? 0) / (current ?? 1)).toFixed(2)}×); server CPU per request (now, as_of, new instant): ${cpu}`,
        );
      },
      scale,
    );
  }
}

/** The history's bounds as the 422 of an instant far before them states them. */
async function boundsOf(url: string, authorization: string): Promise<{ oldest: number; now: number }> {
  const res = await fetch(`${url}/v1/odds/board`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ page_size: 1, as_of: '1970-01-01T00:00:00Z' }),
  });
  const message = ((await res.json()) as { error?: { message?: string } }).error?.message ?? '';
  const [oldest, now] = [...message.matchAll(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g)].map((m) => Date.parse(m[0]));
  if (res.status !== 422 || oldest === undefined || now === undefined) throw new Error(`no bounds in the answer ${res.status}: ${message}`);
  return { oldest, now };
}
