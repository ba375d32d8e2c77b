import type { BackgroundJobs } from '../background.js';
import type { CounterStore, SeedSource } from './counter-store.js';
import { createMemoryStore } from './memory-store.js';
import { createRedisStore } from './redis-store.js';

/**
 * Where a process counts limits: Redis with REDIS_URL (every node and worker), else this
 * process's memory. Owned by the process's background: its start seeds the counts (and connects
 * to Redis), its stop lets them go.
 */
export function createLimitCounters(deps: { redisUrl: string | undefined; seeds: SeedSource; background: BackgroundJobs }): CounterStore {
  const { redisUrl, seeds } = deps;
  return deps.background.own(redisUrl === undefined ? createMemoryStore({ seeds }) : createRedisStore(redisUrl, { seeds }));
}
