import { historyDataset } from '../test/history/fixture.js';
import type { BenchDatabase } from './databases.js';
import type { LoadOptions } from './load.js';
import { type BenchKit, PROPAGATION_MODES, withTwoNodes } from './scale-out.js';
import { bearerFor } from './scenarios/data.js';
import { exportMemory, manyStreams, median, prepareBigHistory, streamLatency } from './scenarios/history.js';
import { call } from './scenarios/http.js';

/** Changes in the big history: 50,000 odds rows of one event, opened and moved once. */
const BIG_HISTORY_ROWS = 50_000;
/** An event of every demo dataset. */
const DEMO_EVENT = 1;
const STREAMS = 500;

/**
 * `--only history`: on one node (the demo data), the server's RSS while it serves a
 * 100,000-change history file, and 500 open streams (memory, fan-out, cached reads without and
 * with them); on two nodes (PostgreSQL when --pg or TEST_DATABASE_URL is given), the latency of a
 * change from an import on A to a stream on B, through Redis and through the poll alone.
 */
export async function historyGroup(kit: BenchKit, databases: BenchDatabase[], load: LoadOptions, rounds: number, readRounds: number): Promise<void> {
  const adminToken = kit.env.ADMIN_TOKEN ?? '';
  for (const database of databases) {
    await kit.withApi(`history-${database}`, database, {}, async (url, demo, api) => {
      const pid = api.child.pid ?? 0;
      const started = Date.now();
      await prepareBigHistory(url, adminToken, DEMO_EVENT, BIG_HISTORY_ROWS);
      kit.note(`${database}: 2 imports of ${BIG_HISTORY_ROWS} odds rows of one event (100,000 history rows) took ${((Date.now() - started) / 1000).toFixed(1)} s`);
      for (const m of await exportMemory(url, demo.api_key, pid, DEMO_EVENT)) {
        kit.note(
          `${database}: GET /v1/historical/odds/${DEMO_EVENT}.${m.name} (100,000 changes, ${m.mb.toFixed(1)} MB sent in ${m.seconds.toFixed(1)} s): ` +
            `server RSS ${m.baseline.toFixed(0)} MB before, peak ${m.peak.toFixed(0)} MB, growth ${(m.peak - m.baseline).toFixed(1)} MB (goal < 50 MB)`,
        );
      }
      const authorization = await bearerFor(url, demo);
      const leagues = await call<{ results: Array<{ qualified_key: string }> }>(url, 'GET', '/v1/references/leagues?page_size=1', { headers: { authorization } });
      const path = `/v1/references/teams?league_key=${encodeURIComponent(leagues.results[0]?.qualified_key ?? 'nba')}`;
      const read = { name: 'GET teams?league_key (Bearer)', requests: [{ method: 'GET' as const, path, headers: { authorization } }] };
      const m = await manyStreams(url, adminToken, pid, read, load, DEMO_EVENT, STREAMS, readRounds);
      const [without, withStreams] = [median(m.readsWithout), median(m.readsWith)];
      kit.note(
        `${database}: ${m.count} open odds streams on one node: RSS ${m.rssBefore.toFixed(0)} → ${m.rssOpen.toFixed(0)} MB (${(m.rssOpen - m.rssBefore).toFixed(1)} MB, goal < 100 MB), ` +
          `V8 heap in use ${m.heapBefore.toFixed(0)} → ${m.heapOpen.toFixed(0)} MB; ` +
          `one change reaches all ${m.count} in p50 ${m.fanOut.p50.toFixed(1)} ms, max ${m.fanOut.p99.toFixed(1)} ms (10 changes); ` +
          `cached reads (${read.name}, ${load.connections} connections, ${m.readsWith.length} alternating rounds, median) ${Math.round(without)} req/s without the streams ` +
          `[${m.readsWithout.map(Math.round).join(', ')}], ${Math.round(withStreams)} req/s with them [${m.readsWith.map(Math.round).join(', ')}] ` +
          `(${((withStreams / without - 1) * 100).toFixed(1)} %)`,
      );
    });
  }
  const database: BenchDatabase = kit.pgServer === undefined ? 'sqlite' : 'postgres';
  for (const mode of ['redis', 'poll'] as const) {
    await withTwoNodes(kit, 'history-latency', database, mode, async (a, b) => {
      const headers = { authorization: `Bearer ${adminToken}` };
      const client = await call<{ api_key: string }>(a, 'POST', '/admin/v1/clients', { headers, body: { name: 'Latency probe', tier: 'pro', auth_method: 'both' } });
      await call(a, 'POST', '/admin/v1/import', { headers, body: historyDataset(Date.now()) });
      const { fromAnswer, fromRequest } = await streamLatency(a, b, adminToken, client.api_key, 100, rounds);
      kit.note(
        `odds stream A→B on ${database}, ${PROPAGATION_MODES[mode]}: from A's answer to the import p50 ${fromAnswer.p50.toFixed(1)} ms, p99 ${fromAnswer.p99.toFixed(1)} ms; ` +
          `from the import request p50 ${fromRequest.p50.toFixed(1)} ms, p99 ${fromRequest.p99.toFixed(1)} ms (${fromAnswer.samples.length} changes; goal p99 < 200 ms through Redis)`,
      );
    });
  }
}
