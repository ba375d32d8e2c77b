import type { SseStream } from '../../test/helpers/sse.js';
import { call, type PageOfItems } from '../scenarios/http.js';

/**
 * A live price feed through the import, shared by the board's benchmark (bench/board.ts) and the
 * feed's (bench/feed.ts): batches of BATCH price changes, one import after the other at a given
 * rate, while something else is measured; the first row of each batch, the probe, is listened for.
 */

/** Price changes per import: a feed sends its changes in batches. */
export const BATCH = 500;

export interface OddsRow {
  id: number;
  event_id: number;
  operator: { id: number };
  betting_market: { id: number };
  position: string;
  line: number | null;
  price_decimal: number;
  status: string;
  /** These four are absent from builds older than them (e006314's, the feed benchmark's control). */
  player_id?: number | null;
  event_period_id?: number | null;
  is_main?: boolean;
  is_live?: boolean;
}

/**
 * The open main-line rows of `events`, as the import takes them back. Alternate lines are left out
 * here rather than by `include_alt_lines`, which older builds refuse as an unknown field.
 */
export async function openRowsOf(url: string, headers: Record<string, string>, events: Iterable<number>): Promise<OddsRow[]> {
  const rows: OddsRow[] = [];
  for (const event of events) {
    for (let page = 1; ; page += 1) {
      const odds = await call<PageOfItems<OddsRow> & { total_pages: number }>(url, 'POST', '/v1/odds/upcoming-odds-by-event', {
        headers,
        body: { event_id: event, page, page_size: 100 },
      });
      rows.push(...odds.results.filter((r) => r.status === 'open' && r.is_main !== false));
      if (page >= odds.total_pages) break;
    }
  }
  return rows;
}

/** A row as the import takes it, at another price; every detail kept, so that only the price moves. */
export const asImported = (r: OddsRow, price: number) => ({
  id: r.id,
  event_id: r.event_id,
  operator_id: r.operator.id,
  betting_market_id: r.betting_market.id,
  position: r.position,
  ...(r.line === null ? {} : { line: r.line }),
  price_decimal: price,
  ...(r.player_id === null || r.player_id === undefined ? {} : { player_id: r.player_id }),
  ...(r.event_period_id === null || r.event_period_id === undefined ? {} : { event_period_id: r.event_period_id }),
  ...(r.is_main === undefined ? {} : { is_main: r.is_main }),
  ...(r.is_live === undefined ? {} : { is_live: r.is_live }),
});

/**
 * The rows a feed moves, with the price each was last sent at: a row goes to one of two prices
 * near its own, never the one it holds, so that every row of every batch is a change. The probe
 * (the first row) jumps above every price of its selection instead, so that its board event is sure.
 */
export interface Slate {
  probe: OddsRow;
  rest: OddsRow[];
  sent: Map<number, number>;
  batches: number;
  /**
   * The probe at a price of its own in each of 400 batches in turn, not at one of two: a listener
   * that may hear a batch late (a webhook's delivery, seconds behind) cannot take an older one for it.
   */
  uniqueProbe?: boolean;
}

export function slateOf(rows: OddsRow[]): Slate {
  const [probe, ...rest] = rows;
  if (probe === undefined || rest.length < BATCH - 1) throw new Error(`the slate has ${rows.length} open odds rows: fewer than a batch`);
  return { probe, rest, sent: new Map(), batches: 0 };
}

const cents = (price: number) => Math.round(price * 100) / 100;

function moved(slate: Slate, row: OddsRow, steps: [number, number]): number {
  const [near, far] = steps.map((step) => cents(row.price_decimal + step)) as [number, number];
  const price = slate.sent.get(row.id) === near ? far : near;
  slate.sent.set(row.id, price);
  return price;
}

/** The next batch: the probe at its new price first, then the next BATCH − 1 rows of the slate. */
export function nextBatch(slate: Slate): { probePrice: number; odds: ReturnType<typeof asImported>[] } {
  const offset = (slate.batches * (BATCH - 1)) % slate.rest.length;
  slate.batches += 1;
  const probePrice = slate.uniqueProbe ? cents(slate.probe.price_decimal + 5 + (slate.batches % 400) * 0.01) : moved(slate, slate.probe, [5, 6]);
  const others = Array.from({ length: BATCH - 1 }, (_, i) => slate.rest[(offset + i) % slate.rest.length]).flatMap((r) =>
    r === undefined ? [] : [asImported(r, moved(slate, r, [0.01, 0.02]))],
  );
  return { probePrice, odds: [asImported(slate.probe, probePrice), ...others] };
}

/** Listens for one batch's probe: resolves with when it was heard (performance.now()), or undefined. */
export type Listener = (probe: OddsRow, price: number) => Promise<number | undefined>;

export interface Heard {
  /** From each import's request to its probe heard, ms. */
  delays: number[];
  /** Probes heard before their import's answer came. */
  beforeAnswer: number;
}

export interface Fed<T> {
  during: T;
  imported: number;
  seconds: number;
  /** Each import request's duration, ms. */
  importMs: number[];
  heard: Heard[];
}

/**
 * Imports a batch every BATCH / rate seconds while `during` runs (one import at a time: one that
 * takes longer than the interval is followed at once, and the achieved rate shows the shortfall);
 * rejects as soon as an import fails. Each import waits for its listeners (its probe heard, or
 * their own deadline) before the next goes, unless `open`: then the imports keep their times, as a
 * live feed would, and the probes are heard as they come (webhooks, whose batching window is
 * longer than a batch's interval at a few thousand changes a second).
 * The commit is between the request and the answer, so the time from the request to the probe
 * heard bounds the time from the commit; the probe is often heard before the answer comes.
 */
export async function runFeed<T>(
  url: string,
  adminToken: string,
  slate: Slate,
  rate: number,
  listeners: Listener[],
  during: () => Promise<T>,
  options: { open?: boolean } = {},
): Promise<Fed<T>> {
  const headers = { authorization: `Bearer ${adminToken}` };
  const intervalMs = (BATCH / rate) * 1000;
  const importMs: number[] = [];
  const heard: Heard[] = listeners.map(() => ({ delays: [], beforeAnswer: 0 }));
  let running = true;
  const pending: Array<Promise<void>> = [];
  const started = performance.now();
  let lastAnswered = started;
  const feed = (async () => {
    for (let batch = 0; running; batch += 1) {
      const wait = started + batch * intervalMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const { probePrice, odds } = nextBatch(slate);
      const listened = listeners.map((listen) => listen(slate.probe, probePrice));
      const sent = performance.now();
      await call(url, 'POST', '/admin/v1/import', { headers, body: { odds } });
      const answered = performance.now();
      lastAnswered = answered;
      importMs.push(answered - sent);
      const record = async () => {
        for (const [i, at] of (await Promise.all(listened)).entries()) {
          const into = heard[i];
          if (at === undefined || into === undefined) continue;
          into.delays.push(at - sent);
          if (at < answered) into.beforeAnswer += 1;
        }
      };
      // Open: the next import goes at its time, whether or not this one's probe has been heard (a live feed does not wait for its listeners).
      if (options.open === true) pending.push(record());
      else await record();
    }
    await Promise.all(pending);
  })();
  try {
    // A failed import ends the phase at once: left to the end of the phase, its rejection was unhandled and ended the process past every cleanup.
    const stopped = feed.then(() => Promise.reject(new Error('the feed stopped before its phase ended')));
    const result = await Promise.race([during(), stopped]);
    running = false;
    await feed;
    // Up to the last import's answer (not the wait for probes still unheard), and at least the batches' own intervals:
    // the first batch goes at once, and a short phase would otherwise seem faster than asked.
    const seconds = Math.max(lastAnswered - started, importMs.length * intervalMs) / 1000;
    return { during: result, imported: importMs.length * BATCH, seconds, importMs, heard };
  } finally {
    running = false;
    await feed.catch(() => undefined);
  }
}

/** When the first event `matches` accepts arrives on the stream (undefined after 10 s). */
export async function heardOn(stream: SseStream, matches: (data: unknown) => boolean): Promise<number | undefined> {
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline) {
    let event;
    try {
      event = await stream.next(Math.max(1, deadline - performance.now()));
    } catch {
      return undefined;
    }
    if (matches(JSON.parse(event.data))) return performance.now();
  }
  return undefined;
}
