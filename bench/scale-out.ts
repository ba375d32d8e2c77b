import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startRedis } from '../test/helpers/redis-server.js';
import { type BenchDatabase, throwawayDatabase } from './databases.js';
import type { Measured, Scenario } from './load.js';
import { type Running, startApi } from './processes.js';
import { authScenarios } from './scenarios/auth.js';
import { dataScenarios } from './scenarios/data.js';
import { propagationLatency } from './scenarios/propagation.js';
import type { DemoCredentials } from './run.js';

/** What run.ts lends the scale-out groups: its API runner, its round-robin measurement, its notes. */
/** How a group's API is started: `demoArgs` are added to its `demo-data` command (`--competitions`; without any, `--no-competitions`). */
export interface ApiOptions {
  probe?: boolean;
  demoArgs?: readonly string[];
}

export interface BenchKit {
  env: Record<string, string>;
  work: string;
  pgServer: string | undefined;
  connections: number;
  withApi<T>(
    name: string,
    database: BenchDatabase,
    extraEnv: Record<string, string>,
    use: (url: string, demo: DemoCredentials, api: Running & { databaseUrl: string }) => Promise<T>,
    scale?: number,
    apiOptions?: ApiOptions,
  ): Promise<T>;
  runGroup(group: string, url: string, scenarios: Scenario[]): Promise<Measured[]>;
  note(text: string): void;
}

/** The scenarios a worker count changes most: CPU-bound auth, a write per request, cached reads. */
const WORKER_SCENARIOS = [
  'GET /v1/account/config, Bearer',
  'POST /v1/auth/login (API key)',
  'POST /v1/auth/refresh (rotating)',
  'GET teams?league_key (Bearer)',
  'POST trends/flows, 2 filters',
];

const WORKER_SETTLE_MS = 3000;

/** The same scenarios against 1 worker and against 2 (node:cluster), on each database. */
export async function workersGroups(kit: BenchKit, databases: BenchDatabase[]): Promise<void> {
  // Several workers count limits in Redis (decision 0090): both sides of the comparison do.
  const redis = await startRedis();
  try {
    for (const database of databases) {
      for (const workers of [1, 2]) {
        await kit.withApi(`workers-${workers}-${database}`, database, { WORKERS: String(workers), REDIS_URL: redis.url }, async (url, demo) => {
          // Ready means one worker answers; the others may still be starting (and taking CPU).
          await new Promise((resolve) => setTimeout(resolve, WORKER_SETTLE_MS));
          const all = [...(await authScenarios(url, demo, kit.connections)), ...(await dataScenarios(url, demo))];
          await kit.runGroup(`${workers} worker${workers > 1 ? 's' : ''} (${database})`, url, all.filter((s) => WORKER_SCENARIOS.includes(s.name)));
        });
      }
    }
  } finally {
    await redis.stop();
  }
  kit.note(
    'workers: autocannon runs inside the bench process and takes much of one of the 2 cores, so 2 workers compete with the load generator; ' +
      'a gain here understates what 2 workers give on a machine whose clients are elsewhere. Writes (login, refresh) are bound by the database as well: ' +
      'on SQLite one writer at a time across processes. Both sides count their limits in one local redis-server.',
  );
}

/**
 * Two API processes on one fresh database, and `use` called with them: through Redis pub/sub
 * (both nodes poll every 60 s, so only a message delivers a change in time) or through the
 * database poll alone (every 1000 ms).
 */
export async function withTwoNodes<T>(kit: BenchKit, name: string, database: BenchDatabase, mode: 'redis' | 'poll', use: (a: string, b: string) => Promise<T>): Promise<T> {
  const dataDir = join(kit.work, `${name}-${mode}`);
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
    return await use(a.url, b.url);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await redis?.stop();
    await store.drop();
  }
}

/** How a pair of nodes hears of changes, as the notes say it. */
export const PROPAGATION_MODES = {
  redis: 'Redis pub/sub (CHANGE_POLL_MS=60000)',
  poll: 'database poll alone (CHANGE_POLL_MS=1000)',
} as const;

/** Change propagation from node A to node B, through Redis and through the poll alone. */
export async function propagationGroup(kit: BenchKit, database: BenchDatabase, rounds: number): Promise<void> {
  for (const mode of ['redis', 'poll'] as const) {
    await withTwoNodes(kit, 'propagation', database, mode, async (a, b) => {
      const { p50, p99, samples } = await propagationLatency(a, b, kit.env.ADMIN_TOKEN ?? '', rounds);
      kit.note(`change propagation A→B on ${database}, ${PROPAGATION_MODES[mode]}: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (${samples.length} flips of a client's disabled flag)`);
    });
  }
}
