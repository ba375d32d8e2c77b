import { openStream } from '../test/helpers/sse.js';
import type { BenchDatabase } from './databases.js';
import { type LoadOptions, measure, type Scenario } from './load.js';
import type { BenchKit } from './scale-out.js';
import { median, quantiles } from './scenarios/history.js';
import { hotPathScenarios } from './scenarios/hot-path.js';
import { call, type PageOfItems } from './scenarios/http.js';
import { bearerFor } from './scenarios/data.js';
import { BATCH, heardOn, type OddsRow, openRowsOf, runFeed, type Slate, slateOf } from './feed/feeder.js';

/** The goals a feed rate must meet: cached board reads at 0.8× their rate without the feed, board events within 100 ms at p99. */
const READ_RATIO_GOAL = 0.8;
const LATENCY_GOAL_MS = 100;

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
        const slate = slateOf(await slateRows(url, authorization));
        const adminToken = kit.env.ADMIN_TOKEN ?? '';
        const baseline = median(await roundsOf(() => measure(url, read, { ...load, warmupSeconds: 1 }), 1));
        const curve: string[] = [];
        let best: number | undefined;
        for (const rate of feedRates) {
          const point = await underFeed(url, adminToken, demo.api_key, slate, rate, () => measure(url, read, { ...load, warmupSeconds: 0 }));
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
  return openRowsOf(url, headers, events);
}

/**
 * One feed rate (bench/feed/feeder.ts) while board reads are measured: the time from an import's
 * request to the board event of its probe on a stream.
 */
async function underFeed(url: string, adminToken: string, apiKey: string, slate: Slate, rate: number, reads: () => Promise<{ reqPerSec: number }>) {
  // A stream names at most 100 events; a larger slate is followed whole.
  const events = [...new Set([slate.probe, ...slate.rest].map((r) => r.event_id))];
  const only = events.length <= 100 ? `&event_ids=${events.join(',')}` : '';
  const stream = await openStream(`${url}/v1/stream/odds?types=board${only}`, { 'x-api-key': apiKey });
  if (stream.status !== 200) throw new Error(`the stream answered ${stream.status}: ${stream.error}`);
  try {
    const fed = await runFeed(url, adminToken, slate, rate, [(probe, price) => heardOn(stream, isBoardEventOf(probe, price))], reads);
    const heard = fed.heard[0] ?? { delays: [], beforeAnswer: 0 };
    return { reads: fed.during.reqPerSec, achieved: fed.imported / fed.seconds, fromRequest: quantiles(heard.delays), beforeAnswer: heard.beforeAnswer };
  } finally {
    stream.close();
  }
}

/** The board event of the probe's selection at its new best price. */
export function isBoardEventOf(probe: OddsRow, price: number): (data: unknown) => boolean {
  return (data) => {
    const board = data as { event_id: number; betting_market_id: number; position: string; best: { price_decimal: number } | null };
    return board.event_id === probe.event_id && board.betting_market_id === probe.betting_market.id && board.position === probe.position && board.best?.price_decimal === price;
  };
}
