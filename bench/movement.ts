import { benchArgs } from './databases.js';
import { ADMIN_TOKEN } from './feed/phases.js';
import { openRowsOf, runFeed, slateOf } from './feed/feeder.js';
import { cpuTicks, measure, type Scenario } from './load.js';
import { localDemo } from './local-demo.js';
import { startApi } from './processes.js';
import { bearerFor } from './scenarios/data.js';
import { call, type PageOfItems } from './scenarios/http.js';

/**
 * `npx tsx bench/movement.ts [--seconds 10] [--connections 10] [--feed-seconds 20] [--feed-rate 2000]`:
 * POST /v1/odds/movement over the whole demo slate (today's board), on SQLite.
 *
 * A fresh demo database (the build's own CLI) and the server on it (NODE_ENV=production). First
 * the demo's prices move through the import for `--feed-seconds` at `--feed-rate` changes a second
 * (batches of 500, bench/feed), so that the history holds moves to read; then:
 * - one walk through every movement page of the slate (page_size 100), one request at a time:
 *   ms per page and the server's CPU-ms per page;
 * - the same pages under load, each connection walking them in turn, beside the board's pages (the
 *   same selections, its cached list) in the same run: requests a second, p50/p99 and the server's
 *   CPU per request.
 */
const args = process.argv.slice(2);
const { flag } = benchArgs(args);
const load = { connections: Number(flag('connections') ?? 10), seconds: Number(flag('seconds') ?? 10), warmupSeconds: 2 };
const feedSeconds = Number(flag('feed-seconds') ?? 20);
const feedRate = Number(flag('feed-rate') ?? 2000);
const PAGE_SIZE = 100;

interface Item {
  event_id: number;
  books: Array<{ movement: { moves: number } }>;
}

const demo = localDemo('movement');
const api = await startApi({ ...demo.env, ADMIN_TOKEN });
try {
  const authorization = await bearerFor(api.url, demo.credentials());
  const headers = { authorization };
  const pages = await slatePages(api.url, headers);
  if (feedSeconds > 0) {
    const rows = await openRowsOf(api.url, headers, pages.events);
    const fed = await runFeed(api.url, ADMIN_TOKEN, slateOf(rows), feedRate, [], () => new Promise((resolve) => setTimeout(resolve, feedSeconds * 1000)));
    console.log(`history moved: ${fed.imported} price changes over ${rows.length} open rows of ${pages.events.size} events, in ${fed.seconds.toFixed(1)} s`);
  }

  // One walk, one request at a time.
  const cpuBefore = cpuTicks(api.child.pid);
  const started = performance.now();
  let selections = 0;
  let books = 0;
  let moves = 0;
  for (let page = 1; page <= pages.count; page += 1) {
    const answer = await call<PageOfItems<Item>>(api.url, 'POST', '/v1/odds/movement', { headers, body: { page, page_size: PAGE_SIZE } });
    selections += answer.results.length;
    for (const item of answer.results) {
      books += item.books.length;
      moves += item.books.reduce((sum, book) => sum + book.movement.moves, 0);
    }
  }
  const walkMs = performance.now() - started;
  const walkCpuMs = ((cpuTicks(api.child.pid) ?? Number.NaN) - (cpuBefore ?? Number.NaN)) * 10;
  console.log(
    `one walk: ${pages.count} pages, ${selections} selections, ${books} books, ${moves} moves in ${walkMs.toFixed(0)} ms ` +
      `(${(walkMs / pages.count).toFixed(1)} ms and ${(walkCpuMs / pages.count).toFixed(1)} CPU-ms a page)`,
  );

  for (const path of ['/v1/odds/board', '/v1/odds/movement']) {
    const measured = await measure(api.url, walkScenario(path, pages.count, authorization, api.child.pid), load);
    console.log(
      `${measured.name}: ${measured.reqPerSec.toFixed(1)} req/s (${(measured.reqPerSec * PAGE_SIZE).toFixed(0)} selections/s), p50 ${measured.p50} ms, p99 ${measured.p99} ms, ` +
        `CPU ${((measured.cpuPerRequest ?? Number.NaN) / 1000).toFixed(2)} ms/request, non-2xx ${measured.non2xx}, errors ${measured.errors}`,
    );
  }
} finally {
  await api.stop();
  demo.remove();
}

/** Today's board: its pages of 100 and its events. */
async function slatePages(url: string, headers: Record<string, string>): Promise<{ count: number; events: Set<number> }> {
  const events = new Set<number>();
  for (let page = 1; ; page += 1) {
    const board = await call<PageOfItems<{ event_id: number }> & { total_pages: number }>(url, 'POST', '/v1/odds/board', { headers, body: { page, page_size: PAGE_SIZE } });
    for (const item of board.results) events.add(item.event_id);
    if (page >= board.total_pages) return { count: board.total_pages, events };
  }
}

/** Every page of the slate in turn (autocannon walks a connection's requests in order, then again). */
function walkScenario(path: string, pages: number, authorization: string, pid: number | undefined): Scenario {
  const body = (page: number) => JSON.stringify({ page, page_size: PAGE_SIZE });
  return {
    name: `POST ${path.slice(4)} over the slate's ${pages} pages of ${PAGE_SIZE}`,
    ...(pid === undefined ? {} : { pid }),
    requests: Array.from({ length: pages }, (_, i) => ({ method: 'POST' as const, path, headers: { authorization, 'content-type': 'application/json' }, body: body(i + 1) })),
  };
}
