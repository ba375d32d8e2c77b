import type { Clock } from '../../platform/clock.js';
import { type Page, pageOf, type Paging } from '../../platform/pagination.js';
import { iso } from '../../shared/wire.js';
import type { ClientAccount } from '../auth/index.js';
import type { Limits, RateLimiter, WindowState } from '../limits/index.js';
import { daysOf, firstAndLastDay } from './date-range.js';
import { UNCHARGED_GROUP, USAGE_GROUP_NAMES } from '../policy/index.js';
import type { UsageMeter } from './usage-meter.js';
import type { HourlyUsageRow, RefusalRow, UsageRepository } from './usage.repository.js';
import type { TopClient, Usage, UsageHours } from './usage.schemas.js';
import { DAY_MS, type DayRange, HOUR_MS, utcDay } from '../../platform/time.js';

/** Usage as a client (GET /v1/account/usage) and an operator (admin API, CLI) see it. */
export interface UsageService {
  /** The account's limits, its current minute and day, and its requests per day of the range by group. */
  report(account: ClientAccount, range: DayRange): Promise<Usage>;
  /** One UTC day's requests per hour and group, and its refusals: the stored ones plus this node's not yet written. */
  hours(account: ClientAccount, date: string | undefined): Promise<UsageHours>;
  /** Clients by requests in the range, most first: the stored counts, this node's written first. */
  top(range: DayRange, paging: Paging): Promise<Page<TopClient>>;
}

export interface UsageServiceDeps {
  repository: UsageRepository;
  meter: UsageMeter;
  limiter: RateLimiter;
  clock: Clock;
}

const GROUP_INDEX = new Map<string, number>(USAGE_GROUP_NAMES.map((group, i) => [group, i]));
const UNCHARGED = USAGE_GROUP_NAMES.indexOf(UNCHARGED_GROUP);

export function createUsageService(deps: UsageServiceDeps): UsageService {
  return {
    report: (account, range) => report(deps, account, range),
    hours: (account, date) => hours(deps, account, date),
    top: (range, paging) => top(deps, range, paging),
  };
}

async function report({ meter, repository, limiter, clock }: UsageServiceDeps, account: ClientAccount, range: DayRange): Promise<Usage> {
  const [current, byDay, deliveries] = await Promise.all([
    limiter.current(account, clock.now()),
    countsByDay({ meter, repository }, account.id, range),
    deliveriesByDay({ meter, repository }, account.id, range),
  ]);
  return {
    tier: account.tier,
    limits: limitsShown(limiter.limitsOf(account)),
    current: { minute: windowShown(current.minute), day: windowShown(current.day) },
    days: daysOf(range).map((date) => {
      const counts = byDay.get(date) ?? USAGE_GROUP_NAMES.map(() => 0);
      const byGroup = Object.fromEntries(USAGE_GROUP_NAMES.map((group, i) => [group, counts[i] ?? 0]));
      const requests = counts.reduce((a, b) => a + b, 0);
      return { date, requests, charged: requests - (counts[UNCHARGED] ?? 0), by_group: byGroup, webhook_deliveries: deliveries.get(date) ?? 0 };
    }),
  };
}

/** Stored counts plus this node's counts not yet written, none in both or neither: exact on one node, behind by at most a flush elsewhere. */
async function countsByDay({ meter, repository }: Pick<UsageServiceDeps, 'meter' | 'repository'>, clientId: string, range: DayRange): Promise<Map<string, number[]>> {
  const byDay = new Map<string, number[]>();
  const { from, to } = firstAndLastDay(range);
  const add = (day: string, group: number, requests: number) => {
    if (day < from || day > to || group < 0) return;
    const counts = byDay.get(day) ?? USAGE_GROUP_NAMES.map(() => 0);
    counts[group] = (counts[group] ?? 0) + requests;
    byDay.set(day, counts);
  };
  const [stored, pending] = await meter.settled(() => repository.ofClient(clientId, from, to), () => meter.pending(clientId));
  for (const row of [...stored, ...pending]) add(row.day, GROUP_INDEX.get(row.group) ?? -1, row.requests);
  return byDay;
}

/** The webhook deliveries per day, stored plus this node's not yet written (as countsByDay). */
async function deliveriesByDay({ meter, repository }: Pick<UsageServiceDeps, 'meter' | 'repository'>, clientId: string, range: DayRange): Promise<Map<string, number>> {
  const { from, to } = firstAndLastDay(range);
  const [stored, pending] = await meter.settled(() => repository.deliveriesOfClient(clientId, from, to), () => meter.pendingDeliveries(clientId));
  const byDay = new Map<string, number>();
  for (const row of [...stored, ...pending]) if (row.day >= from && row.day <= to) byDay.set(row.day, (byDay.get(row.day) ?? 0) + row.deliveries);
  return byDay;
}

/** One UTC day's requests per hour and group, and its refusals: the stored ones plus this node's not yet written. */
async function hours({ meter, repository, limiter, clock }: UsageServiceDeps, account: ClientAccount, date: string | undefined): Promise<UsageHours> {
  const day = date ?? utcDay(clock.now());
  const from = Date.parse(day);
  const to = from + DAY_MS;
  const [[stored, storedRefusals], [pending, pendingRefusals]] = await meter.settled(
    () => Promise.all([repository.hoursOfClient(account.id, from, to), repository.refusalsOfClient(account.id, from, to)]),
    () => [meter.pending(account.id), meter.pendingRefusals(account.id)] as const,
  );
  return {
    date: day,
    limits: limitsShown(limiter.limitsOf(account)),
    hours: countsByHour([...stored, ...pending], from).map((byHour, i) => ({
      hour: iso(from + i * HOUR_MS),
      requests: byHour.reduce((a, b) => a + b, 0),
      by_group: Object.fromEntries(USAGE_GROUP_NAMES.map((group, g) => [group, byHour[g] ?? 0])),
    })),
    refusals: refusalsByMinute([...storedRefusals, ...pendingRefusals], from, to).map((r) => ({ minute: iso(r.minute), window: r.window, refusals: r.refusals })),
  };
}

/** The 24 hours of the day starting at `from`, each with its requests by group. */
function countsByHour(rows: readonly HourlyUsageRow[], from: number): number[][] {
  const counts = Array.from({ length: 24 }, () => USAGE_GROUP_NAMES.map(() => 0));
  for (const row of rows) {
    const hour = counts[Math.floor((row.hour - from) / HOUR_MS)];
    const group = GROUP_INDEX.get(row.group);
    if (hour !== undefined && group !== undefined && row.hour >= from) hour[group] = (hour[group] ?? 0) + row.requests;
  }
  return counts;
}

/** The refusals with `from <= minute < to`, summed per minute and window, in order of minute and window. */
function refusalsByMinute(rows: readonly RefusalRow[], from: number, to: number): Array<{ minute: number; window: 'minute' | 'day'; refusals: number }> {
  const refusals = new Map<string, { minute: number; window: 'minute' | 'day'; refusals: number }>();
  for (const row of rows) {
    if (row.minute < from || row.minute >= to || (row.window !== 'minute' && row.window !== 'day')) continue;
    const key = `${row.minute} ${row.window}`;
    const entry = refusals.get(key) ?? { minute: row.minute, window: row.window, refusals: 0 };
    entry.refusals += row.refusals;
    refusals.set(key, entry);
  }
  return [...refusals.values()].sort((a, b) => a.minute - b.minute || a.window.localeCompare(b.window));
}

/**
 * Clients by requests in the range, most first: the stored counts (every node writes every
 * USAGE_FLUSH_MS), this node's written first — an operator's call, rare enough to write for.
 */
async function top({ meter, repository }: Pick<UsageServiceDeps, 'meter' | 'repository'>, range: DayRange, paging: Paging): Promise<Page<TopClient>> {
  await meter.flush();
  const { from, to } = firstAndLastDay(range);
  const { rows, total } = await repository.top(from, to, (paging.page - 1) * paging.page_size, paging.page_size);
  return pageOf(
    rows.map((r) => ({ client_id: r.clientId, name: r.name, tier: r.tier, requests: r.requests })),
    total,
    paging,
  );
}

function limitsShown(limits: Limits): Usage['limits'] {
  return { per_minute: limits.perMinute, per_day: limits.perDay };
}

function windowShown(state: WindowState): Usage['current']['minute'] {
  return { used: state.used, remaining: state.remaining, resets_at: iso(state.resetsAt) };
}
