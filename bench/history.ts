import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { historyDataset } from '../test/history/fixture.js';
import { startRedis } from '../test/helpers/redis-server.js';
import { type BenchDatabase, throwawayDatabase } from './databases.js';
import type { LoadOptions } from './load.js';
import { startApi } from './processes.js';
import type { BenchKit } from './scale-out.js';
import { bearerFor } from './scenarios/data.js';
import { exportMemory, manyStreams, prepareBigHistory, streamLatency } from './scenarios/history.js';
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
export async function historyGroup(kit: BenchKit, databases: BenchDatabase[], load: LoadOptions, rounds: number): Promise<void> {
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
      const m = await manyStreams(url, adminToken, pid, read, load, DEMO_EVENT, STREAMS);
      kit.note(
        `${database}: ${m.count} open odds streams on one node: RSS ${m.rssBefore.toFixed(0)} → ${m.rssOpen.toFixed(0)} MB (${(m.rssOpen - m.rssBefore).toFixed(1)} MB, goal < 100 MB); ` +
          `one change reaches all ${m.count} in p50 ${m.fanOut.p50.toFixed(1)} ms, max ${m.fanOut.p99.toFixed(1)} ms (10 changes); ` +
          `cached reads (${read.name}, ${load.connections} connections) ${Math.round(m.readsWithout)} req/s without the streams, ${Math.round(m.readsWith)} req/s with them ` +
          `(${((m.readsWith / m.readsWithout - 1) * 100).toFixed(1)} %)`,
      );
    });
  }
  const database: BenchDatabase = kit.pgServer === undefined ? 'sqlite' : 'postgres';
  for (const mode of ['redis', 'poll'] as const) {
    const dataDir = join(kit.work, `history-latency-${mode}`);
    mkdirSync(dataDir, { recursive: true });
    const store = await throwawayDatabase(database, dataDir, kit.pgServer);
    const redis = mode === 'redis' ? await startRedis() : undefined;
    const env = {
      ...kit.env,
      DEMO_DATA: 'false',
      DATABASE_URL: store.url,
      DATA_DIR: dataDir,
      CHANGE_POLL_MS: mode === 'redis' ? '60000' : '1000',
      ...(redis ? { REDIS_URL: redis.url } : {}),
    };
    const a = await startApi(env);
    const b = await startApi(env);
    try {
      const headers = { authorization: `Bearer ${adminToken}` };
      const client = await call<{ api_key: string }>(a.url, 'POST', '/admin/v1/clients', { headers, body: { name: 'Latency probe', tier: 'pro', auth_method: 'both' } });
      await call(a.url, 'POST', '/admin/v1/import', { headers, body: historyDataset(Date.now()) });
      const { fromAnswer, fromRequest } = await streamLatency(a.url, b.url, adminToken, client.api_key, 100, rounds);
      const how = mode === 'redis' ? 'Redis pub/sub (CHANGE_POLL_MS=60000)' : 'database poll alone (CHANGE_POLL_MS=1000)';
      kit.note(
        `odds stream A→B on ${database}, ${how}: from A's answer to the import p50 ${fromAnswer.p50.toFixed(1)} ms, p99 ${fromAnswer.p99.toFixed(1)} ms; ` +
          `from the import request p50 ${fromRequest.p50.toFixed(1)} ms, p99 ${fromRequest.p99.toFixed(1)} ms (${fromAnswer.samples.length} changes; goal p99 < 200 ms through Redis)`,
      );
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await redis?.stop();
      await store.drop();
    }
  }
}
