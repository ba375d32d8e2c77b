import type { Kysely } from 'kysely';
import type { BackgroundJob, BackgroundJobs, JobLog } from '../../platform/background.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { createCredentialsRepository } from './credentials.repository.js';
import { MINUTE_MS } from '../../platform/time.js';

/** How often a node writes the minutes its credentials were used in. */
export const USAGE_FLUSH_MS = 15_000;

/**
 * `last_used_at` of API keys without a database write per request (decision 0102): a use is
 * noted in memory, to the minute, at most once per credential and minute; a background job
 * writes the noted minutes in one UPDATE each every USAGE_FLUSH_MS, and once more when it stops.
 * Each UPDATE only moves the column forward, so nodes writing the same key cannot move it back.
 */
export interface CredentialUsage extends BackgroundJob {
  /** Notes a use now. Synchronous and cheap: it runs on every X-API-Key call. */
  used(code: string): void;
  /** Writes what is noted. */
  flush(): Promise<void>;
}

export function createCredentialUsage(deps: { db: Kysely<Schema>; clock: Clock; intervalMs?: number; background: BackgroundJobs }): CredentialUsage {
  const { clock } = deps;
  const repository = createCredentialsRepository(deps.db);
  /** Codes noted in the current minute: a later use in it costs one map lookup. */
  const noted = new Map<string, number>();
  let pending = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let log: JobLog | undefined;

  async function flush(): Promise<void> {
    const batch = pending;
    pending = new Map();
    const minute = minuteOf(clock.now());
    // What was noted in earlier minutes is done: the first use in a new minute is noted again.
    for (const [code, at] of noted) if (at < minute) noted.delete(code);
    for (const [code, at] of batch) await repository.markUsed(code, at);
  }

  const flushLogged = () =>
    flush().catch((error: unknown) => {
      // The minutes are lost, not the requests: a later use notes them again.
      log?.warn({ err: error }, 'writing last_used_at of credentials failed');
    });

  return deps.background.own({
    name: 'credential last-use writer',
    used(code) {
      const minute = minuteOf(clock.now());
      if (noted.get(code) === minute) return;
      noted.set(code, minute);
      pending.set(code, minute);
    },
    flush,
    start(jobLog) {
      log = jobLog;
      if (timer) return;
      timer = setInterval(() => void flushLogged(), deps.intervalMs ?? USAGE_FLUSH_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flushLogged();
    },
  });
}

function minuteOf(ms: number): number {
  return Math.floor(ms / MINUTE_MS) * MINUTE_MS;
}
