import type { Taken, WindowedCounter } from './counter-store.js';
import { windowOf } from './counter-store.js';

/**
 * Events of one counter that a shared store granted this node ahead of time, in the counter's
 * current window, under the limit the counter had then. Every granted event keeps its own place in
 * the shared count (its ticket), so the counts a request sees are exact positions, as one round
 * trip each would have given them.
 */
interface Lease {
  window: number;
  windowMs: number;
  /** The counter's limit when the events were granted: under another limit they are not handed out. */
  limit: number;
  /** Ranges of tickets not handed out yet, [next, last], oldest first. */
  ranges: Array<[number, number]>;
  /** The shared count as last heard of (the count a refused take reports). */
  last: number;
  /** Events promised to a batch on its way to the store: not handed out to other takes meanwhile. */
  pledged: number;
}

/** Events this node holds but will not hand out: to be taken off the shared count. */
export interface Owed {
  key: string;
  window: number;
  windowMs: number;
  count: number;
}

export interface Leases {
  /**
   * A take served from the leases, synchronously, when every counter has an event left; undefined
   * otherwise (nothing is handed out then).
   */
  serve(counters: readonly WindowedCounter[], now: number): Taken | undefined;
  /** The take refused: the counts as last heard of. */
  refused(counters: readonly WindowedCounter[], now: number): Taken;
  /** Events of the counter this node holds and has not handed out in its current window (owed ones included). */
  held(counter: WindowedCounter, now: number): number;
  /** Promises up to `wanted` of the events held and not promised yet to a batch; returns how many. */
  pledge(counter: WindowedCounter, now: number, wanted: number): number;
  /** Takes back a promise (the batch's answer came, or it failed). */
  release(counter: WindowedCounter, now: number, pledged: number): void;
  /** Adds a grant: the store's count went up by `granted` to `after`. */
  grant(counter: WindowedCounter, now: number, granted: number, after: number): void;
  /**
   * The counter's limit may have changed: what was granted under another limit is owed back (an
   * operator's tier change starts from what the client used, not from what this node held).
   * Returns whether anything is owed now.
   */
  revise(counter: WindowedCounter, now: number): boolean;
  /** Whether events of the counter's current window are owed back and not handed over yet. */
  owes(counter: WindowedCounter, now: number): boolean;
  /** Every event owed back, handed over to be given back (and forgotten here). */
  takeOwed(): Owed[];
  /** Forgets every lease and debt: the store lost the counts they came from. */
  clear(): void;
}

/** Leases and debts of windows that ended are dropped this often. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Leases by counter key, so that each window keeps its own (the events of a day granted ahead stay
 * valid when the minute they came with ends), and so that they outlive the objects that describe a
 * counter: the limiter plans an account anew after any change to any client, and a lease kept by
 * such an object would be forgotten while the shared count still holds its events.
 *
 * A key has one lease per limit it was granted under; almost always one. A second appears when
 * the limit changes while a batch taken under the old one is on its way: that batch's takes are
 * served from the old lease, and what is left of it is owed back before the next batch leaves.
 * Only `pledge` and `revise` retire leases, never `serve` or `grant`, so that the answer of a batch
 * that mixes both limits serves every take the store granted.
 */
export function createLeases(): Leases {
  const book: LeaseBook = { leases: new Map(), owed: new Map(), nextSweep: 0 };
  const { leases, owed } = book;

  return {
    serve: (counters, now) => serve(book, counters, now),

    refused: (counters, now) => ({
      allowed: false,
      counts: counters.map((counter) => inWindow(book, counter, now).reduce((last, lease) => Math.max(last, lease.last), 0)),
    }),

    held(counter, now) {
      const debt = owed.get(counter.key);
      const owing = debt !== undefined && debt.window === windowOf(now, counter.windowMs) ? debt.count : 0;
      return inWindow(book, counter, now).reduce((sum, lease) => sum + count(lease), owing);
    },

    pledge(counter, now, wanted) {
      retireOthers(book, counter, now);
      const lease = current(book, counter, now);
      if (lease === undefined) return 0;
      const pledged = Math.max(0, Math.min(wanted, count(lease) - lease.pledged));
      lease.pledged += pledged;
      return pledged;
    },

    release(counter, now, pledged) {
      const lease = current(book, counter, now);
      if (lease !== undefined) lease.pledged = Math.max(0, lease.pledged - pledged);
    },

    grant: (counter, now, granted, after) => grant(book, counter, now, granted, after),

    revise(counter, now) {
      retireOthers(book, counter, now);
      return owes(book, counter, now);
    },

    owes: (counter, now) => owes(book, counter, now),

    takeOwed() {
      const due = [...owed.values()];
      owed.clear();
      return due;
    },

    clear() {
      leases.clear();
      owed.clear();
    },
  };
}

/** One node's leases by counter key, its debts by counter key, and when windows that ended are next dropped. */
interface LeaseBook {
  readonly leases: Map<string, Lease[]>;
  readonly owed: Map<string, Owed>;
  nextSweep: number;
}

const count = (lease: Lease): number => lease.ranges.reduce((sum, [next, last]) => sum + last - next + 1, 0);

/** The counter's leases in its current window, whatever limit they were granted under. */
function inWindow(book: LeaseBook, counter: WindowedCounter, now: number): Lease[] {
  const window = windowOf(now, counter.windowMs);
  return book.leases.get(counter.key)?.filter((lease) => lease.window === window) ?? [];
}

/** The counter's lease in its current window under its current limit (a loop, no closure: every served request asks). */
function current(book: LeaseBook, counter: WindowedCounter, now: number): Lease | undefined {
  const list = book.leases.get(counter.key);
  if (list === undefined) return undefined;
  const window = windowOf(now, counter.windowMs);
  for (const lease of list) if (lease.window === window && lease.limit === counter.limit) return lease;
  return undefined;
}

/** A take served from the leases when every counter has an event left, each count its next ticket; else undefined. */
function serve(book: LeaseBook, counters: readonly WindowedCounter[], now: number): Taken | undefined {
  for (const counter of counters) {
    const lease = current(book, counter, now);
    if (lease === undefined || count(lease) - lease.pledged <= 0) return undefined;
  }
  return {
    allowed: true,
    counts: counters.map((counter) => {
      const lease = current(book, counter, now);
      const range = lease?.ranges[0];
      if (lease === undefined || range === undefined) return 0;
      const ticket = range[0];
      if (ticket === range[1]) lease.ranges.shift();
      else range[0] = ticket + 1;
      return ticket;
    }),
  };
}

/** Adds a grant to the counter's lease under its current limit (a new lease when it has none). */
function grant(book: LeaseBook, counter: WindowedCounter, now: number, granted: number, after: number): void {
  if (now >= book.nextSweep) sweep(book, now);
  let lease = current(book, counter, now);
  if (lease === undefined) {
    lease = { window: windowOf(now, counter.windowMs), windowMs: counter.windowMs, limit: counter.limit, ranges: [], last: after, pledged: 0 };
    const list = (book.leases.get(counter.key) ?? []).filter((other) => other.pledged > 0 || other.window === lease?.window);
    book.leases.set(counter.key, [...list, lease]);
  }
  lease.last = Math.max(lease.last, after);
  if (granted > 0) lease.ranges.push([after - granted + 1, after]);
}

function owe(book: LeaseBook, counter: WindowedCounter, window: number, surplus: number): void {
  const debt = book.owed.get(counter.key);
  if (debt !== undefined && debt.window === window) debt.count += surplus;
  else book.owed.set(counter.key, { key: counter.key, window, windowMs: counter.windowMs, count: surplus });
}

/**
 * Leases of the counter granted under another limit: their events not promised to a batch are
 * owed back; the promised ones stay for the batch on its way (its takes carry the old limit).
 */
function retireOthers(book: LeaseBook, counter: WindowedCounter, now: number): void {
  const list = book.leases.get(counter.key);
  if (list === undefined) return;
  const window = windowOf(now, counter.windowMs);
  for (const lease of list) {
    if (lease.limit === counter.limit) continue;
    const surplus = count(lease) - lease.pledged;
    if (lease.window === window && surplus > 0) owe(book, counter, window, surplus);
    lease.ranges = firstTickets(lease.ranges, lease.pledged);
  }
  const kept = list.filter((lease) => lease.limit === counter.limit || lease.pledged > 0);
  if (kept.length === 0) book.leases.delete(counter.key);
  else book.leases.set(counter.key, kept);
}

function owes(book: LeaseBook, counter: WindowedCounter, now: number): boolean {
  const debt = book.owed.get(counter.key);
  return debt !== undefined && debt.window === windowOf(now, counter.windowMs) && debt.count > 0;
}

function sweep(book: LeaseBook, now: number): void {
  book.nextSweep = now + SWEEP_EVERY_MS;
  for (const [key, list] of book.leases) {
    const kept = list.filter((lease) => lease.pledged > 0 || lease.window >= windowOf(now, lease.windowMs));
    if (kept.length === 0) book.leases.delete(key);
    else if (kept.length < list.length) book.leases.set(key, kept);
  }
  for (const [key, debt] of book.owed) if (debt.window < windowOf(now, debt.windowMs)) book.owed.delete(key);
}

/** The first `wanted` tickets of these ranges. */
function firstTickets(ranges: ReadonlyArray<[number, number]>, wanted: number): Array<[number, number]> {
  const kept: Array<[number, number]> = [];
  let left = wanted;
  for (const [next, last] of ranges) {
    if (left <= 0) break;
    const end = Math.min(last, next + left - 1);
    kept.push([next, end]);
    left -= end - next + 1;
  }
  return kept;
}
