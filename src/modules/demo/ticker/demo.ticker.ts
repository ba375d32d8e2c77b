import { randomInt, randomUUID } from 'node:crypto';
import type { BackgroundJob, BackgroundJobs, JobLog } from '../../../platform/background.js';
import type { Clock } from '../../../platform/clock.js';
import type { LeasesRepository } from '../../../platform/db/leases.repository.js';
import { DAY_MS } from '../../../platform/time.js';
import type { Dataset, ImportService } from '../../import/index.js';
import { OPERATOR_NAMES } from '../generator/names.js';
import { createRandom, type Random, slug } from '../generator/random.js';
import { type EventProgress, moveQuote, type PriceMove, progress, quotesOf } from './ticker.moves.js';
import { moveOutright } from './ticker.outrights.js';
import type { TickerEvent, TickerRepository } from './ticker.repository.js';

/**
 * The demo ticker: on the demo's data, a few prices a second move on the events starting within a
 * day of now (and two of one book's market of a competition not over yet, when the demo holds its
 * competitions), and the games that have started go live, score and end, each tick one import through
 * the import service the import route uses. So the price history, the odds stream, the board
 * events and webhooks have real changes to show on a fresh start, and the grading has games to
 * grade. One node ticks at a time, under a database lease.
 */
export interface DemoTicker extends BackgroundJob {
  /** One tick, if this node holds the lease: what it imported. */
  tick(): Promise<TickResult>;
  /** Gives the lease up (a stopped job does). */
  release(): Promise<void>;
}

export interface TickResult {
  /** False when another node holds the lease: this one did nothing. */
  held: boolean;
  /** The price updates imported. */
  prices: PriceMove[];
  /** The events whose status or score it imported. */
  events: Array<{ id: number; status: 'live' | 'final'; home_score: number; away_score: number }>;
}

export interface DemoTickerDeps {
  /**
   * What imports its ticks as the import route does: the node's import thread where it has one
   * (the work after the imports then runs there, not on the thread that serves the reads), else the
   * import route's service with this node's held changes for its streams.
   */
  importer: Pick<ImportService, 'importChecked'>;
  repository: TickerRepository;
  leases: LeasesRepository;
  clock: Clock;
  /** About this many price rows move a second; 0 and the ticker does nothing. */
  perSecond: number;
  background?: BackgroundJobs;
  /** The moves' seed (tests fix it); by default a new one each start. */
  seed?: number;
}

/** A tick a second: each moves about `perSecond` prices in one import. */
export const TICK_MS = 1_000;
const LEASE = 'demo:ticker';
/** Long enough to outlast a slow tick; short enough that another node takes over soon after this one stops. */
const LEASE_MS = 10 * TICK_MS;
/** Events whose prices one tick moves: a few, so that a tick reads a few boards, not the day's. */
const EVENTS_PER_TICK = 3;
/** Ticks failed in a row before the log says so, once. */
const FAILURES_WORTH_A_WARNING = 10;
/** The demo's books, as its generator makes them: the ticker moves their prices only. */
const DEMO_BOOKS = OPERATOR_NAMES.map((name, i) => ({ id: i + 1, key: slug(name) }));

export function createDemoTicker(deps: DemoTickerDeps): DemoTicker {
  const { importer, repository, leases, clock, perSecond } = deps;
  const holder = randomUUID();
  const random = createRandom(deps.seed ?? randomInt(2 ** 31));
  let lastTick: number | undefined;

  async function tick(): Promise<TickResult> {
    const now = clock.now();
    if (perSecond <= 0) return { held: false, prices: [], events: [] };
    if (!(await leases.take(LEASE, holder, now, now + LEASE_MS))) {
      lastTick = undefined;
      return { held: false, prices: [], events: [] };
    }
    const elapsed = lastTick === undefined ? TICK_MS : Math.max(0, now - lastTick);
    lastTick = now;
    const books = await repository.demoBooks(DEMO_BOOKS);
    // A database without every one of the demo's books holds someone's own data: it is never moved.
    if (books.length !== DEMO_BOOKS.length) return { held: true, prices: [], events: [] };
    const near = await repository.eventsBetween(now - DAY_MS, now + DAY_MS);
    const progressed = near.flatMap((event) => progress(random, event, now, elapsed) ?? []);
    const prices = await pricesToMove(random, repository, near.filter((e) => !progressed.some((p) => p.event.id === e.id && p.status === 'final')), books, perSecond);
    prices.push(...(await outrightsToMove(random, repository, books)));
    const dataset: Dataset = {};
    if (progressed.length > 0) dataset.events = progressed.map(eventItem);
    if (prices.length > 0) dataset.price_updates = prices;
    if (progressed.length > 0 || prices.length > 0) await importer.importChecked(dataset);
    return { held: true, prices, events: progressed.map((p) => ({ id: p.event.id, status: p.status, home_score: p.score.home, away_score: p.score.away })) };
  }

  const release = () => leases.release(LEASE, holder).catch(() => {});
  const ticker: DemoTicker = { name: 'demo ticker', tick, release, ...everyTick(tick, release) };
  return deps.background ? deps.background.own(ticker) : ticker;
}

/** About `count` price rows of a few events, a quote at a time (a market's sides move together). */
async function pricesToMove(random: Random, repository: TickerRepository, events: readonly TickerEvent[], books: readonly number[], count: number): Promise<PriceMove[]> {
  const picked = random.sample(events, Math.min(events.length, EVENTS_PER_TICK + Math.floor(count / 20)));
  const quotes = random.sample(quotesOf(await repository.pricesOf(picked.map((e) => e.id), books)), Number.MAX_SAFE_INTEGER);
  const moves: PriceMove[] = [];
  for (const quote of quotes) {
    if (moves.length >= count) break;
    moves.push(...moveQuote(random, quote));
  }
  return moves;
}

/** A competition's prices moved a little: one book's market of one competition not yet over, when there are any. */
async function outrightsToMove(random: Random, repository: TickerRepository, books: readonly number[]): Promise<PriceMove[]> {
  const competitions = await repository.openCompetitions();
  if (competitions.length === 0) return [];
  const quotes = quotesOf(await repository.outrightPricesOf(random.pick(competitions), books));
  return quotes.length === 0 ? [] : moveOutright(random, random.pick(quotes));
}

/** The import's event item: the stored event with its new status and score (period scores and statistics stay as stored). */
function eventItem({ event, status, score }: EventProgress): NonNullable<Dataset['events']>[number] {
  return {
    id: event.id,
    league_id: event.leagueId,
    start_time: new Date(event.start).toISOString(),
    status,
    home_team_id: event.homeTeamId,
    away_team_id: event.awayTeamId,
    home_score: score.home,
    away_score: score.away,
  };
}

/**
 * The job's start and stop: a tick every TICK_MS, none while the last is still running; the timer
 * never holds the process open. Stopping waits for a tick under way (its import is not cut in
 * two), then gives the lease up.
 */
function everyTick(tick: () => Promise<TickResult>, release: () => Promise<void>): Pick<BackgroundJob, 'start' | 'stop'> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let failures = 0;
  return {
    start(log: JobLog) {
      if (timer) return;
      timer = setInterval(() => {
        if (running) return;
        running = tick()
          .then(
            () => {
              failures = 0;
            },
            (error: unknown) => {
              // A tick that meets the database busy with a long import (the demo's own first load) is no news: the next comes in a second.
              failures += 1;
              if (failures === FAILURES_WORTH_A_WARNING) log.warn({ err: error }, `demo ticker: ${failures} ticks in a row failed; it goes on trying every second`);
            },
          )
          .finally(() => {
            running = undefined;
          });
      }, TICK_MS);
      timer.unref();
    },
    async stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      await running;
      await release();
    },
  };
}
