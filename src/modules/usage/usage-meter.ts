import type { BackgroundJob, JobLog } from '../../platform/background.js';
import { USAGE_GROUP_NAMES } from '../policy/index.js';
import type { UsageRepository, UsageRow } from './usage.repository.js';
import { DAY_MS, utcDay } from '../../platform/time.js';

/**
 * Counts charged requests per client, UTC day and route group in memory, and adds them to the
 * database in one batch every `flushMs` and when the process stops. No request waits on a
 * write for its count: under load, a write per request would make the database the
 * bottleneck of every read. A crash loses at most `flushMs` of counts; a failed write keeps
 * them for the next flush.
 */
export interface UsageMeter extends BackgroundJob {
  /** One charged request, in a usage group (its index in USAGE_GROUP_NAMES, as the route's policy names it). */
  count(clientId: string, group: number, now: number): void;
  /** This node's counts of a client not yet written. */
  pending(clientId: string): UsageRow[];
  /** Writes what is counted so far (one flush at a time). */
  flush(): Promise<void>;
}

interface DayCounts {
  day: string;
  counts: number[];
}

export function createUsageMeter(deps: { repository: UsageRepository; flushMs: number }): UsageMeter {
  const { repository, flushMs } = deps;
  /** Today's counts by client. */
  let today = new Map<string, DayCounts>();
  /** Counts of earlier days (a client's day rolled over) and of failed flushes. */
  let waiting: UsageRow[] = [];
  let day = '';
  let dayStart = 0;
  let dayEnd = 0;
  let flushing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let log: JobLog | undefined;

  const rowsOf = (clientId: string, entry: DayCounts): UsageRow[] =>
    USAGE_GROUP_NAMES.flatMap((group, i) => ((entry.counts[i] ?? 0) > 0 ? [{ clientId, day: entry.day, group, requests: entry.counts[i] ?? 0 }] : []));

  async function write(): Promise<void> {
    const rows = [...waiting, ...[...today].flatMap(([clientId, entry]) => rowsOf(clientId, entry))];
    today = new Map();
    waiting = [];
    if (rows.length === 0) return;
    try {
      await repository.add(rows);
    } catch (error) {
      // Kept for the next flush: a database blip must not lose billing counts.
      waiting = [...rows, ...waiting];
      log?.warn({ err: error, rows: rows.length }, 'writing usage counts failed; they are kept for the next flush');
    }
  }

  const meter: UsageMeter = {
    name: 'usage meter',

    count(clientId, group, now) {
      if (now < dayStart || now >= dayEnd) {
        day = utcDay(now);
        dayStart = Math.floor(now / DAY_MS) * DAY_MS;
        dayEnd = dayStart + DAY_MS;
      }
      let entry = today.get(clientId);
      if (entry === undefined || entry.day !== day) {
        if (entry !== undefined) waiting.push(...rowsOf(clientId, entry));
        entry = { day, counts: USAGE_GROUP_NAMES.map(() => 0) };
        today.set(clientId, entry);
      }
      entry.counts[group] = (entry.counts[group] ?? 0) + 1;
    },

    pending(clientId) {
      const entry = today.get(clientId);
      return [...waiting.filter((row) => row.clientId === clientId), ...(entry === undefined ? [] : rowsOf(clientId, entry))];
    },

    flush() {
      flushing = flushing.then(write);
      return flushing;
    },

    start(startLog) {
      log = startLog;
      if (timer) return;
      timer = setInterval(() => void meter.flush(), flushMs);
      timer.unref();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      // The counts since the last flush, before the database closes.
      await meter.flush();
    },
  };
  return meter;
}
