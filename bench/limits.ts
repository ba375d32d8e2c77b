import type { Scenario } from './load.js';
import { type Running, startApi } from './processes.js';
import type { DemoCredentials } from './run.js';
import { teamsWithBearer } from './scenarios/data.js';
import { startRedis } from '../test/helpers/redis-server.js';

const TIERS = ['free', 'pro', 'enterprise'] as const;
const tierLimits = (limit: number | null) => JSON.stringify(Object.fromEntries(TIERS.map((tier) => [tier, { per_minute: limit, per_day: limit }])));

/**
 * Limits on every tier, never reached: the limiter checks and counts every request but refuses
 * none (the bench's requests must all be answered 200).
 */
export const LIMITS_NEVER_REACHED = tierLimits(1_000_000_000);
/** No limits at all: the limiter counts nothing (the build with limits off). */
export const LIMITS_OFF = tierLimits(null);

export interface LimitsComparison {
  scenarios: Scenario[];
  /** A line for the report: each configuration's throughput against limits off, and p99 with Redis. */
  summarise(rows: ReadonlyArray<{ name: string; reqPerSec: number; p99: number; cpuPerRequest?: number }>): string;
  stop(): Promise<void>;
}

const NAMES = {
  off: 'GET teams (Bearer), limits off',
  memory: 'GET teams (Bearer), limits in process',
  redis: 'GET teams (Bearer), limits in Redis',
};

/**
 * The limits' benchmark (decision 0094): the same build, on one demo database, three ways — limits
 * off, limits counted in process, limits counted in Redis — measured round-robin in one group, so
 * that the ratios survive a noisy machine.
 */
export async function limitsComparison(env: Record<string, string>, readDemo: () => DemoCredentials): Promise<LimitsComparison> {
  const redis = await startRedis();
  const apis: Running[] = [];
  try {
    const off = await startApi({ ...env, TIER_LIMITS: LIMITS_OFF });
    apis.push(off);
    // The first start created the demo client; the others share its database.
    const demo = readDemo();
    const memory = await startApi({ ...env, TIER_LIMITS: LIMITS_NEVER_REACHED });
    apis.push(memory);
    const shared = await startApi({ ...env, TIER_LIMITS: LIMITS_NEVER_REACHED, REDIS_URL: redis.url });
    apis.push(shared);
    const scenarios = [
      await teamsWithBearer(off.url, demo, NAMES.off, off.child.pid),
      await teamsWithBearer(memory.url, demo, NAMES.memory, memory.child.pid),
      await teamsWithBearer(shared.url, demo, NAMES.redis, shared.child.pid),
    ];
    return {
      scenarios,
      summarise(rows) {
        const of = (name: string) => rows.find((row) => row.name === name);
        const base = of(NAMES.off);
        const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
        const cost = (name: string) => {
          const row = of(name);
          if (!base || !row) return 'n/a';
          const cpu = base.cpuPerRequest && row.cpuPerRequest ? `, CPU per request ${percent(row.cpuPerRequest / base.cpuPerRequest - 1)}` : '';
          return `throughput ${percent(1 - row.reqPerSec / base.reqPerSec)}${cpu}`;
        };
        return (
          `limits' cost on GET teams (Bearer), against limits off in the same run — in process: ${cost(NAMES.memory)} (bound 5%); ` +
          `in Redis: ${cost(NAMES.redis)} (bound 15%); p99 with Redis ${of(NAMES.redis)?.p99 ?? 'n/a'} ms (limits off ${base?.p99 ?? 'n/a'} ms)`
        );
      },
      async stop() {
        for (const api of apis) await api.stop();
        await redis.stop();
      },
    };
  } catch (error) {
    for (const api of apis) await api.stop();
    await redis.stop();
    throw error;
  }
}
