// scratch, never committed: SECS=12000 npx tsx bench/zz-prof.ts [--prof] (CPU profile into /tmp/prof)
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
import { localDemo } from './local-demo.js';
import { call, type PageOfItems } from './scenarios/http.js';
import { bearerFor } from './scenarios/data.js';
import { openStream } from '../test/helpers/sse.js';

const { throwawayDatabase } = await import('./databases.js');
const { execFileSync } = await import('node:child_process');
const pg = process.env.PG === '1' ? await throwawayDatabase('postgres', '', process.env.TEST_DATABASE_URL) : undefined;
const demo = localDemo('prof');
if (pg) {
  demo.env.DATABASE_URL = pg.url;
  for (const command of [['migrate', '--create'], ['demo-data']]) execFileSync(process.execPath, ['bin/sportsdata.js', ...command], { env: { ...process.env, ...demo.env }, stdio: 'ignore' });
}
const env = { ...demo.env, ADMIN_TOKEN: 'admin-token-admin-token-admin-token-0123456789' };
(demo as any).env = env;
const { startApi } = await import('./processes.js');
const prof = process.argv.includes('--prof');
const server = await startApi(env, { nodeArgs: prof ? ['--cpu-prof', `--cpu-prof-dir=/tmp/prof`] : [] });
const url = server.url;
const auth = await bearerFor(url, demo.credentials());
const events = new Set<number>();
for (let page = 1; page <= 3; page++) {
  const b = await call<any>(url, 'POST', '/v1/odds/board', { headers: { authorization: auth }, body: { page, page_size: 100 } });
  for (const i of b.results) events.add(i.event_id);
}
const rows: any[] = [];
for (const event of events) {
  for (let page = 1; ; page++) {
    const o = await call<any>(url, 'POST', '/v1/odds/upcoming-odds-by-event', { headers: { authorization: auth }, body: { event_id: event, include_alt_lines: false, page, page_size: 100 } });
    rows.push(...o.results.filter((r: any) => r.status === 'open'));
    if (page >= o.total_pages) break;
  }
}
console.log('rows', rows.length);
const stream = await openStream(`${url}/v1/stream/odds?types=board,odds`, { 'x-api-key': demo.credentials().api_key });
let got = 0;
(async () => { for (;;) { try { await stream.next(100000); got++; } catch { return; } } })();
const headers = { authorization: `Bearer ${env.ADMIN_TOKEN}` };
const times: number[] = [];
const cpu = () => { const f = require('node:fs').readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const cpu0 = cpu();
const t0 = performance.now();
for (let b = 0; performance.now() - t0 < Number(process.env.SECS ?? 15000); b++) {
  const off = (b * 500) % rows.length;
  const batch = Array.from({ length: 500 }, (_, i) => rows[(off + i) % rows.length]).map((r: any) => ({
    id: r.id, event_id: r.event_id, operator_id: r.operator.id, betting_market_id: r.betting_market.id, position: r.position,
    ...(r.line === null ? {} : { line: r.line }), price_decimal: Math.round((r.price_decimal + (b % 2 ? 0.01 : 0.02)) * 100) / 100,
    ...(r.player_id === null ? {} : { player_id: r.player_id }), ...(r.event_period_id === null ? {} : { event_period_id: r.event_period_id }), is_main: r.is_main, is_live: r.is_live,
  }));
  const s = performance.now();
  await call(url, 'POST', '/admin/v1/import', { headers, body: { odds: batch } });
  times.push(performance.now() - s);
}
const cpuMs = cpu() - cpu0;
times.sort((a, b) => a - b);
console.log('imports', times.length, 'p50', times[Math.floor(times.length / 2)]?.toFixed(1), 'p99', times[Math.floor(times.length * 0.99)]?.toFixed(1), 'stream events', got, 'server CPU-ms per 1000 changes', (cpuMs / (times.length * 0.5)).toFixed(1));
stream.close();
await server.stop();
demo.remove();
await pg?.drop();
