import type { BenchDatabase } from './databases.js';
import type { Scenario } from './load.js';
import type { BenchKit } from './scale-out.js';
import { bearerFor } from './scenarios/data.js';

/**
 * `--only outrights`: in one run, on the demo loaded with its competitions, a board page of this
 * week's golf tournament's winner market (150 players, each priced by its books, de-vigged over
 * the 150 outcomes) beside a board page of 100 of the day's matchups: what a many-outcome market
 * costs next to the page every client reads.
 */
export async function outrightsGroup(kit: BenchKit, databases: BenchDatabase[], scale: number): Promise<void> {
  for (const database of databases) {
    await kit.withApi(
      `outrights-${database}`,
      database,
      {},
      async (url, demo) => {
        const authorization = await bearerFor(url, demo);
        const get = async <T>(path: string): Promise<T> => {
          const res = await fetch(`${url}${path}`, { headers: { authorization } });
          if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
          return (await res.json()) as T;
        };
        const { results } = await get<{ results: Array<{ id: number; status: string; participants: number }> }>('/v1/competitions?type=tournament&page_size=100');
        const golf = results.find((c) => c.status !== 'final');
        if (golf === undefined) throw new Error('the demo has no tournament to come: was it loaded with --competitions?');
        const markets = await get<{ results: Array<{ id: number; key: string }> }>('/v1/references/betting-markets?page_size=100');
        const winner = markets.results.find((m) => m.key === 'outright-winner');
        if (winner === undefined) throw new Error('the demo has no outright-winner market');
        const board = (name: string, body: Record<string, unknown>): Scenario => ({
          name,
          requests: [{ method: 'POST' as const, path: '/v1/odds/board', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) }],
        });
        const measured = await kit.runGroup(`outrights (${database})`, url, [
          board('POST odds/board, page of 100, matchups', { page_size: 100 }),
          board(`POST odds/board, ${golf.participants}-player winner market, page of 100`, {
            event_ids: [golf.id],
            betting_market_ids: [winner.id],
            event_kinds: ['competition'],
            page_size: 100,
          }),
        ]);
        const [matchups, outright] = measured.map((m) => m.reqPerSec);
        kit.note(
          `outrights (${database}): a board page of the ${golf.participants}-player winner market ${Math.round(outright ?? 0)} req/s beside a matchup board page ${Math.round(matchups ?? 0)} req/s ` +
            `(${((outright ?? 0) / (matchups ?? 1)).toFixed(2)}×)`,
        );
      },
      scale,
      { demoArgs: ['--competitions'] },
    );
  }
}
