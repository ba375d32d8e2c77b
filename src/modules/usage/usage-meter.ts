import type { BackgroundJob, BackgroundJobs, JobLog } from '../../platform/background.js';
import { USAGE_GROUP_NAMES } from '../policy/index.js';
import type { DeliveriesRow, HourlyUsageRow, RefusalRow, UsageRepository } from './usage.repository.js';
import { HOUR_MS, MINUTE_MS, utcDay } from '../../platform/time.js';

/**
 * Counts charged requests per client, UTC hour and route group in memory, the requests refused
 * 429 per client, minute and window, and the webhook deliveries per client and day, and adds
 * them to the database in one batch every `flushMs` and when the process stops. No request waits on a write for its count: under load, a
 * write per request would make the database the bottleneck of every read. A crash loses at most
 * `flushMs` of counts; a failed write keeps them for the next flush.
 */
export interface UsageMeter extends BackgroundJob {
  /** One charged request, in a usage group (its index in USAGE_GROUP_NAMES, as the route's policy names it). */
  count(clientId: string, group: number, now: number): void;
  /** One request refused 429 because `window` (`minute` or `day`) was exhausted. */
  refused(clientId: string, window: string, now: number): void;
  /** One webhook delivery a client's endpoint acknowledged: counted beside the requests, never as one. */
  delivered(clientId: string, now: number): void;
  /** This node's counts of a client not yet written. */
  pending(clientId: string): HourlyUsageRow[];
  /** This node's refusals of a client not yet written. */
  pendingRefusals(clientId: string): RefusalRow[];
  /** This node's webhook deliveries of a client not yet written. */
  pendingDeliveries(clientId: string): DeliveriesRow[];
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

/** What the meter holds between flushes, and where its writes stand. */
interface MeterState {
  /** This hour's counts by client. */
  current: Map<string, HourCounts>;
  /** Counts of earlier hours (a client's hour rolled over) and of failed flushes. */
  waiting: HourlyUsageRow[];
  /** Refusals by client, minute and window (one entry each, however many requests were refused). */
  refusals: Map<string, RefusalRow>;
  /** Webhook deliveries by client and day. */
  deliveries: Map<string, DeliveriesRow>;
  hourStart: number;
  hourEnd: number;
  flushing: Promise<void>;
  /** Writes started so far, and whether one is under way: what `settled` compares around a read. */
  writes: number;
  writing: boolean;
  log: JobLog | undefined;
}

export function createUsageMeter(deps: { repository: UsageRepository; flushMs: number; background: BackgroundJobs }): UsageMeter {
  const { repository, flushMs } = deps;
  const state: MeterState = {
    current: new Map(),
    waiting: [],
    refusals: new Map(),
    deliveries: new Map(),
    hourStart: 0,
    hourEnd: 0,
    flushing: Promise.resolve(),
    writes: 0,
    writing: false,
    log: undefined,
  };
  let timer: NodeJS.Timeout | undefined;

  const meter: UsageMeter = {
    name: 'usage meter',

    count: (clientId, group, now) => countRequest(state, clientId, group, now),

    refused(clientId, window, now) {
      addRefusals(state.refusals, { clientId, minute: Math.floor(now / MINUTE_MS) * MINUTE_MS, window, refusals: 1 });
    },

    delivered(clientId, now) {
      addDeliveries(state.deliveries, { clientId, day: utcDay(now), deliveries: 1 });
    },

    pendingDeliveries(clientId) {
      return [...state.deliveries.values()].filter((row) => row.clientId === clientId);
    },

    pending(clientId) {
      const entry = state.current.get(clientId);
      return [...state.waiting.filter((row) => row.clientId === clientId), ...(entry === undefined ? [] : rowsOf(clientId, entry))];
    },

    pendingRefusals(clientId) {
      return [...state.refusals.values()].filter((row) => row.clientId === clientId);
    },

    flush() {
      state.flushing = state.flushing.then(() => write(state, repository));
      return state.flushing;
    },

    settled: (read, unwritten) => settled(state, read, unwritten),

    start(startLog) {
      state.log = startLog;
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

function countRequest(state: MeterState, clientId: string, group: number, now: number): void {
  if (now < state.hourStart || now >= state.hourEnd) {
    state.hourStart = Math.floor(now / HOUR_MS) * HOUR_MS;
    state.hourEnd = state.hourStart + HOUR_MS;
  }
  let entry = state.current.get(clientId);
  if (entry === undefined || entry.hour !== state.hourStart) {
    if (entry !== undefined) state.waiting.push(...rowsOf(clientId, entry));
    entry = { hour: state.hourStart, counts: USAGE_GROUP_NAMES.map(() => 0) };
    state.current.set(clientId, entry);
  }
  entry.counts[group] = (entry.counts[group] ?? 0) + 1;
}

function rowsOf(clientId: string, entry: HourCounts): HourlyUsageRow[] {
  return USAGE_GROUP_NAMES.flatMap((group, i) =>
    (entry.counts[i] ?? 0) > 0 ? [{ clientId, day: utcDay(entry.hour), hour: entry.hour, group, requests: entry.counts[i] ?? 0 }] : [],
  );
}

function addRefusals(refusals: Map<string, RefusalRow>, row: RefusalRow): void {
  const key = `${row.clientId} ${row.minute} ${row.window}`;
  const entry = refusals.get(key);
  if (entry === undefined) refusals.set(key, { ...row });
  else entry.refusals += row.refusals;
}

function addDeliveries(deliveries: Map<string, DeliveriesRow>, row: DeliveriesRow): void {
  const key = `${row.clientId} ${row.day}`;
  const entry = deliveries.get(key);
  if (entry === undefined) deliveries.set(key, { ...row });
  else entry.deliveries += row.deliveries;
}

async function write(state: MeterState, repository: UsageRepository): Promise<void> {
  const rows = [...state.waiting, ...[...state.current].flatMap(([clientId, entry]) => rowsOf(clientId, entry))];
  const refused = [...state.refusals.values()];
  const delivered = [...state.deliveries.values()];
  state.current = new Map();
  state.waiting = [];
  state.refusals = new Map();
  state.deliveries = new Map();
  if (rows.length === 0 && refused.length === 0 && delivered.length === 0) return;
  state.writes += 1;
  state.writing = true;
  try {
    await repository.add(rows, refused, delivered);
  } catch (error) {
    // Kept for the next flush: a database blip must not lose billing counts.
    state.waiting = [...rows, ...state.waiting];
    for (const row of refused) addRefusals(state.refusals, row);
    for (const row of delivered) addDeliveries(state.deliveries, row);
    state.log?.warn({ err: error, rows: rows.length }, 'writing usage counts failed; they are kept for the next flush');
  } finally {
    state.writing = false;
  }
}

async function settled<T, U>(state: MeterState, read: () => Promise<T>, unwritten: () => U): Promise<[T, U]> {
  for (;;) {
    while (state.writing) await state.flushing;
    const before = state.writes;
    const stored = await read();
    if (state.writes === before && !state.writing) return [stored, unwritten()];
  }
}
