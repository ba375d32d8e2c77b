import type { BackgroundJob, BackgroundJobs, JobLog } from '../../platform/background.js';
import { USAGE_GROUP_NAMES } from '../policy/index.js';
import type { HourlyUsageRow, RefusalRow, UsageRepository } from './usage.repository.js';
import { HOUR_MS, MINUTE_MS, utcDay } from '../../platform/time.js';

/**
 * Counts charged requests per client, UTC hour and route group in memory, and the requests
 * refused 429 per client, minute and window, and adds them to the database in one batch every
 * `flushMs` and when the process stops. No request waits on a write for its count: under load, a
 * write per request would make the database the bottleneck of every read. A crash loses at most
 * `flushMs` of counts; a failed write keeps them for the next flush.
 */
export interface UsageMeter extends BackgroundJob {
  /** One charged request, in a usage group (its index in USAGE_GROUP_NAMES, as the route's policy names it). */
  count(clientId: string, group: number, now: number): void;
  /** One request refused 429 because `window` (`minute` or `day`) was exhausted. */
  refused(clientId: string, window: string, now: number): void;
  /** This node's counts of a client not yet written. */
  pending(clientId: string): HourlyUsageRow[];
  /** This node's refusals of a client not yet written. */
  pendingRefusals(clientId: string): RefusalRow[];
  /** Writes what is counted so far (one flush at a time). */
  flush(): Promise<void>;
  /**
   * `read` of stored counts, and `unwritten` of this node's counts, with each count in exactly one:
   * a write moves counts from memory to the database, and a read beside it would find them in
   * neither or in both. So `read` runs while none of this node's writes is under way, again if one
   * started meanwhile, and `unwritten` right after it, in the same turn.
   */
  settled<T, U>(read: () => Promise<T>, unwritten: () => U): Promise<[T, U]>;
}

interface HourCounts {
  hour: number;
  counts: number[];
}

export function createUsageMeter(deps: { repository: UsageRepository; flushMs: number; background: BackgroundJobs }): UsageMeter {
  const { repository, flushMs } = deps;
  /** This hour's counts by client. */
  let current = new Map<string, HourCounts>();
  /** Counts of earlier hours (a client's hour rolled over) and of failed flushes. */
  let waiting: HourlyUsageRow[] = [];
  /** Refusals by client, minute and window (one entry each, however many requests were refused). */
  let refusals = new Map<string, RefusalRow>();
  let hourStart = 0;
  let hourEnd = 0;
  let flushing: Promise<void> = Promise.resolve();
  /** Writes started so far, and whether one is under way: what `settled` compares around a read. */
  let writes = 0;
  let writing = false;
  let timer: NodeJS.Timeout | undefined;
  let log: JobLog | undefined;

  const rowsOf = (clientId: string, entry: HourCounts): HourlyUsageRow[] =>
    USAGE_GROUP_NAMES.flatMap((group, i) =>
      (entry.counts[i] ?? 0) > 0 ? [{ clientId, day: utcDay(entry.hour), hour: entry.hour, group, requests: entry.counts[i] ?? 0 }] : [],
    );

  async function write(): Promise<void> {
    const rows = [...waiting, ...[...current].flatMap(([clientId, entry]) => rowsOf(clientId, entry))];
    const refused = [...refusals.values()];
    current = new Map();
    waiting = [];
    refusals = new Map();
    if (rows.length === 0 && refused.length === 0) return;
    writes += 1;
    writing = true;
    try {
      await repository.add(rows, refused);
    } catch (error) {
      // Kept for the next flush: a database blip must not lose billing counts.
      waiting = [...rows, ...waiting];
      for (const row of refused) addRefusals(row);
      log?.warn({ err: error, rows: rows.length }, 'writing usage counts failed; they are kept for the next flush');
    } finally {
      writing = false;
    }
  }

  function addRefusals(row: RefusalRow): void {
    const key = `${row.clientId} ${row.minute} ${row.window}`;
    const entry = refusals.get(key);
    if (entry === undefined) refusals.set(key, { ...row });
    else entry.refusals += row.refusals;
  }

  const meter: UsageMeter = {
    name: 'usage meter',

    count(clientId, group, now) {
      if (now < hourStart || now >= hourEnd) {
        hourStart = Math.floor(now / HOUR_MS) * HOUR_MS;
        hourEnd = hourStart + HOUR_MS;
      }
      let entry = current.get(clientId);
      if (entry === undefined || entry.hour !== hourStart) {
        if (entry !== undefined) waiting.push(...rowsOf(clientId, entry));
        entry = { hour: hourStart, counts: USAGE_GROUP_NAMES.map(() => 0) };
        current.set(clientId, entry);
      }
      entry.counts[group] = (entry.counts[group] ?? 0) + 1;
    },

    refused(clientId, window, now) {
      addRefusals({ clientId, minute: Math.floor(now / MINUTE_MS) * MINUTE_MS, window, refusals: 1 });
    },

    pending(clientId) {
      const entry = current.get(clientId);
      return [...waiting.filter((row) => row.clientId === clientId), ...(entry === undefined ? [] : rowsOf(clientId, entry))];
    },

    pendingRefusals(clientId) {
      return [...refusals.values()].filter((row) => row.clientId === clientId);
    },

    flush() {
      flushing = flushing.then(write);
      return flushing;
    },

    async settled(read, unwritten) {
      for (;;) {
        while (writing) await flushing;
        const before = writes;
        const stored = await read();
        if (writes === before && !writing) return [stored, unwritten()];
      }
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
  return deps.background.own(meter);
}
