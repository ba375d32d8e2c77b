import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type AppContext, createContext } from '../src/context.js';
import { withEncryptionKey } from '../src/encryption-key.js';
import { withJwtSecret } from '../src/jwt-secret.js';
import { ensureDemoClient } from '../src/modules/demo/index.js';
import { connectDatabase } from '../src/platform/db/connect.js';
import type { App } from '../src/platform/http/types.js';
import { BATCH, nextBatch, slateOf } from './feed/feeder.js';
import { feedRows } from './feed/phases.js';
import { bearerFor } from './scenarios/data.js';
import { localDemo } from './local-demo.js';

/**
 * `npx tsx bench/feed-stages.ts [--windows 1,3,10] [--changes 15000]`: the CPU each stage of the
 * feed path costs per 1,000 price changes, in one process, by how many imports each run of the work
 * after them takes at once.
 *
 * The feed bench (bench/feed.ts) measures a server under a live feed from outside; on a 2-core
 * machine its CPU per change moves by half from one run to the next, and it cannot say which
 * stage a change in cost came from. Here there is no server and no other thread: a demo database
 * (SQLite, scale 1) and this checkout's app in this process, with no background job started. The
 * feed of bench/feed.ts (batches of 500 changes to the open main-line rows of the first days'
 * events, through `POST /admin/v1/import`, injected) is imported `W` batches at a time, then each history
 * processor is run once, as a node's own imports wake them: `W` stands for the window a processor
 * waits (at 5,000 changes a second, 250 ms is 2.5 imports, 1 s is 10). Each stage's CPU time
 * (user + system, `process.cpuUsage`) is summed over `--changes` changes for each `W`.
 *
 * A stage whose figure falls as W grows costs per run (its work is per market touched); one that
 * stays level costs per change. Compare builds by running this in each checkout, one after the
 * other: a figure here is this process's alone, so other load on the machine moves it far less
 * than it moves the feed bench's.
 */

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const windows = option('windows', '1,3,10').split(',').map(Number);
const changesPerWindow = Number(option('changes', '15000'));
const ADMIN_TOKEN = 'feed-stages-admin-token-feed-stages-admin-token';

const demo = localDemo('feed-stages');
// Every stage in this process, where its CPU is counted: an import thread would do them on a thread of its own.
Object.assign(process.env, demo.env, { ADMIN_TOKEN, IMPORT_THREAD: 'false' });
const config = withEncryptionKey(withJwtSecret(loadConfig()));
const database = await connectDatabase(config.databaseUrl);
const ctx = createContext({ config, database });
const app = await buildApp(ctx);
try {
  await ensureDemoClient({ clients: ctx.clients, dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const slate = slateOf(await feedRows(url, { authorization: await bearerFor(url, demo.credentials()) }));
  const stages = stagesOf(ctx);
  // What the demo's load left is worked through first: only the feed's own changes are counted.
  for (const [, stage] of stages) await stage.run();
  console.log(`${slate.rest.length + 1} open rows of the first days' events; CPU-ms per 1,000 changes (${changesPerWindow} changes per W):`);
  console.log(`| W (imports per run) | import | ${stages.map(([name]) => name).join(' | ')} | all |`);
  console.log(`|---:|---:|${stages.map(() => '---:').join('|')}|---:|`);
  for (const w of windows) {
    const spent = new Map<string, number>([['import', 0], ...stages.map(([name]): [string, number] => [name, 0])]);
    let changes = 0;
    while (changes < changesPerWindow) {
      spent.set('import', (spent.get('import') ?? 0) + (await cpuOf(async () => {
        for (let i = 0; i < w; i++) await importBatch(app, nextBatch(slate).odds);
      })));
      changes += w * BATCH;
      for (const [name, stage] of stages) spent.set(name, (spent.get(name) ?? 0) + (await cpuOf(() => stage.run())));
    }
    const perThousand = [...spent.values()].map((ms) => ms / (changes / 1000));
    console.log(`| ${w} | ${perThousand.map((v) => v.toFixed(1)).join(' | ')} | ${perThousand.reduce((a, b) => a + b, 0).toFixed(1)} |`);
  }
} finally {
  await app.close();
  await database.close();
  demo.remove();
}

/** The work after the imports, in the order a node's own import wakes it. */
function stagesOf(ctx: AppContext): Array<[string, { run(): Promise<void> }]> {
  const stages: Array<[string, { run(): Promise<void> } | undefined]> = [
    ['board events', ctx.boardEvents],
    ['moves', ctx.oddsMoves],
    ['signals detector', ctx.signals.detector],
    ['webhooks former', ctx.webhookFormer],
  ];
  return stages.flatMap(([name, stage]): Array<[string, { run(): Promise<void> }]> => (stage === undefined ? [] : [[name, stage]]));
}

async function cpuOf(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

async function importBatch(app: App, odds: unknown[]): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/admin/v1/import', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { odds } });
  if (res.statusCode !== 200) throw new Error(`import answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
}
