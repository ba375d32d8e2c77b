import { openStream } from '../test/helpers/sse.js';
import type { BenchDatabase } from './databases.js';
import { type LoadOptions, measure, type Scenario } from './load.js';
import type { BenchKit } from './scale-out.js';
import { median, quantiles } from './scenarios/history.js';
import { hotPathScenarios } from './scenarios/hot-path.js';
import { call, type PageOfItems } from './scenarios/http.js';
import { bearerFor } from './scenarios/data.js';

/** Price changes per import: a feed sends its changes in batches. */
const BATCH = 500;
/** The goals a feed rate must meet: cached board reads at 0.8× their rate without the feed, board events within 100 ms at p99. */
const READ_RATIO_GOAL = 0.8;
const LATENCY_GOAL_MS = 100;

interface OddsRow {
  id: number;
  event_id: number;
  operator: { id: number };
  betting_market: { id: number };
  position: string;
  line: number | null;
  price_decimal: number;
  status: string;
  player_id: number | null;
  event_period_id: number | null;
  is_main: boolean;
  is_live: boolean;
}

interface BoardItem {
  event_id: number;
  betting_market: { id: number };
  position: string;
  prices: Array<{ operator: { id: number }; price_decimal: number }>;
  best: { price_decimal: number };
}

/**
 * `--only board`: (a) a cached board page of 100 selections against the same-bytes anchor, beside
 * the hot path's other pages in the same run; (b) the board under a live feed through the import,
 * batches of 500 price changes at each rate of `feedRates` (changes per second): cached board reads
 * against their rate without the feed, and the time from an import to the board event of a price it
 * moved on a stream; the curve, and the highest rate that meets both goals.
 */
export async function boardGroup(kit: BenchKit, databases: BenchDatabase[], load: LoadOptions, feedRates: number[], scale: number): Promise<void> {
  for (const database of databases) {
    await kit.withApi(
      `board-${database}`,
      database,
      {},
      async (url, demo) => {
        const scenarios = await hotPathScenarios(url, demo);
        await kit.runGroup(`board (${database})`, url, [...scenarios, boardScenario(scenarios, await bearerFor(url, demo))]);
      },
      scale,
    );
    await kit.withApi(
      `board-feed-${database}`,
      database,
      {},
      async (url, demo) => {
        const authorization = await bearerFor(url, demo);
        const read = boardScenario(await hotPathScenarios(url, demo), authorization);
        const rows = await slateRows(url, authorization);
        if (rows.length < BATCH + 1) throw new Error(`the demo slate has ${rows.length} odds rows: fewer than a batch`);
        const adminToken = kit.env.ADMIN_TOKEN ?? '';
        const baseline = median(await roundsOf(() => measure(url, read, { ...load, warmupSeconds: 1 }), 1));
        const curve: string[] = [];
        let best: number | undefined;
        for (const rate of feedRates) {
          const point = await underFeed(url, adminToken, demo.api_key, rows, rate, () => measure(url, read, { ...load, warmupSeconds: 0 }));
          const ratio = point.reads / baseline;
          const meets = ratio >= READ_RATIO_GOAL && point.fromRequest.samples.length > 0 && point.fromRequest.p99 <= LATENCY_GOAL_MS;
          if (meets) best = rate;
          curve.push(
            `${rate}/s asked, ${Math.round(point.achieved)}/s imported: board reads ${Math.round(point.reads)} req/s (${ratio.toFixed(2)}× of ${Math.round(baseline)}), ` +
              `board event from the import's request p50 ${point.fromRequest.p50.toFixed(1)} ms, p99 ${point.fromRequest.p99.toFixed(1)} ms ` +
              `(${point.fromRequest.samples.length} imports, ${point.beforeAnswer} of them heard before their answer came)${meets ? '' : ' — misses a goal'}`,
          );
        }
        kit.note(
          `board under a live feed (${database}, batches of ${BATCH}): highest rate meeting both goals (reads ≥ ${READ_RATIO_GOAL}×, p99 ≤ ${LATENCY_GOAL_MS} ms from the import's request, which bounds the time from its commit): ` +
            `${best === undefined ? 'none of those tried' : `${best} changes/s`}; the curve: ${curve.join('; ')}`,
        );
      },
      scale,
    );
  }
}

/** A cached board page of 100 selections (today's slate), with the hot path's Bearer token. */
function boardScenario(hot: Scenario[], authorization: string): Scenario {
  const pid = hot[0]?.pid;
  return {
    name: 'POST odds/board, page of 100',
    ...(pid === undefined ? {} : { pid }),
    requests: [{ method: 'POST', path: '/v1/odds/board', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ page_size: 100 }) }],
  };
}

async function roundsOf<T>(run: () => Promise<{ reqPerSec: number } & T>, rounds: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < rounds; i += 1) out.push((await run()).reqPerSec);
  return out;
}

/** The open main-line rows of today's board (the demo slate), as the import takes them back. */
async function slateRows(url: string, authorization: string): Promise<OddsRow[]> {
  const headers = { authorization };
  const events = new Set<number>();
  for (let page = 1; ; page += 1) {
    const board = await call<PageOfItems<BoardItem> & { total_pages: number }>(url, 'POST', '/v1/odds/board', { headers, body: { page, page_size: 100 } });
    for (const item of board.results) events.add(item.event_id);
    if (page >= board.total_pages) break;
  }
  const rows: OddsRow[] = [];
  for (const event of events) {
    for (let page = 1; ; page += 1) {
      const odds = await call<PageOfItems<OddsRow> & { total_pages: number }>(url, 'POST', '/v1/odds/upcoming-odds-by-event', {
        headers,
        body: { event_id: event, include_alt_lines: false, page, page_size: 100 },
      });
      rows.push(...odds.results.filter((r) => r.status === 'open'));
      if (page >= odds.total_pages) break;
    }
  }
  return rows;
}

/** A row as the import takes it, at another price; every detail kept, so that only the price moves. */
const asImported = (r: OddsRow, price: number) => ({
  id: r.id,
  event_id: r.event_id,
  operator_id: r.operator.id,
  betting_market_id: r.betting_market.id,
  position: r.position,
  ...(r.line === null ? {} : { line: r.line }),
  price_decimal: price,
  ...(r.player_id === null ? {} : { player_id: r.player_id }),
  ...(r.event_period_id === null ? {} : { event_period_id: r.event_period_id }),
  is_main: r.is_main,
  is_live: r.is_live,
});

/** Batches fed so far, across the rates: each moves every price it names away from the one before, so that every batch is a change. */
let fedBatches = 0;

/**
 * One feed rate: batches of BATCH changes imported every BATCH / rate seconds while board reads are
 * measured. The first row of each batch, the probe, jumps above every price of its selection, so
 * that its board event is sure: the time from the import's request to that event on a stream. The
 * commit is between the two, so this bounds the time from the commit; the event usually comes
 * before the import's answer does, so the answer cannot be the starting point.
 */
async function underFeed(url: string, adminToken: string, apiKey: string, rows: OddsRow[], rate: number, reads: () => Promise<{ reqPerSec: number }>) {
  const [probe, ...rest] = rows;
  if (probe === undefined) throw new Error('no rows');
  // A stream names at most 100 events; a larger slate is followed whole.
  const events = [...new Set(rows.map((r) => r.event_id))];
  const only = events.length <= 100 ? `&event_ids=${events.join(',')}` : '';
  const stream = await openStream(`${url}/v1/stream/odds?types=board${only}`, { 'x-api-key': apiKey });
  if (stream.status !== 200) throw new Error(`the stream answered ${stream.status}: ${stream.error}`);
  const headers = { authorization: `Bearer ${adminToken}` };
  const fromRequest: number[] = [];
  let beforeAnswer = 0;
  const intervalMs = (BATCH / rate) * 1000;
  let running = true;
  let imported = 0;
  const started = performance.now();
  const feed = (async () => {
    for (let batch = 0; running; batch += 1) {
      const due = started + batch * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const up = fedBatches++ % 2 === 0;
      const probePrice = Math.round((probe.price_decimal + (up ? 5 : 6)) * 100) / 100;
      const offset = (batch * (BATCH - 1)) % rest.length;
      const moved = Array.from({ length: BATCH - 1 }, (_, i) => rest[(offset + i) % rest.length]).flatMap((r) =>
        r === undefined ? [] : [asImported(r, Math.round((r.price_decimal + (up ? 0.01 : 0.02)) * 100) / 100)],
      );
      const heard = waitForProbe(stream, probe, probePrice);
      const sent = performance.now();
      await call(url, 'POST', '/admin/v1/import', { headers, body: { odds: [asImported(probe, probePrice), ...moved] } });
      const answered = performance.now();
      imported += BATCH;
      const at = await heard;
      if (at !== undefined) {
        fromRequest.push(at - sent);
        if (at < answered) beforeAnswer += 1;
      }
    }
  })();
  try {
    const measured = await reads();
    running = false;
    await feed;
    const seconds = (performance.now() - started) / 1000;
    return { reads: measured.reqPerSec, achieved: imported / seconds, fromRequest: quantiles(fromRequest), beforeAnswer };
  } finally {
    running = false;
    stream.close();
  }
}

/** When the board event of the probe's selection at its new best price arrives (undefined after 10 s). */
async function waitForProbe(stream: Awaited<ReturnType<typeof openStream>>, probe: OddsRow, price: number): Promise<number | undefined> {
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline) {
    let event;
    try {
      event = await stream.next(Math.max(1, deadline - performance.now()));
    } catch {
      return undefined;
    }
    const data = JSON.parse(event.data) as { event_id: number; betting_market_id: number; position: string; best: { price_decimal: number } | null };
    if (data.event_id === probe.event_id && data.betting_market_id === probe.betting_market.id && data.position === probe.position && data.best?.price_decimal === price) {
      return performance.now();
    }
  }
  return undefined;
}
