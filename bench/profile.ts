import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { localDemo } from './local-demo.js';
import { bearerFor } from './scenarios/data.js';

/**
 * `npx tsx bench/profile.ts [--path /v1/account/config] [--api-key] [--login] [--seconds 10]`: the API under
 * load with `node --cpu-prof`, then its CPU time split by part (self time of the functions of each
 * part, from the V8 profile), in µs per request. Issue 11: where a small answer's time goes.
 * `--login` loads POST /v1/auth/login with the API key instead (a write: SHA-256, the insert).
 */
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const path = flag('path') ?? '/v1/account/config';
const seconds = Number(flag('seconds') ?? 10);
const demoDb = localDemo('profile');
const work = demoDb.work;
const { url: base, stop } = await demoDb.start({ nodeArgs: ['--cpu-prof', '--cpu-prof-dir', work] });
const demo = demoDb.credentials();
const login = args.includes('--login');
const headers = args.includes('--api-key') || login ? { 'x-api-key': demo.api_key } : { authorization: await bearerFor(base, demo) };
const target = login ? { url: `${base}/v1/auth/login`, method: 'POST' as const } : { url: `${base}${path}` };
await autocannon({ ...target, connections: 50, duration: 2, headers });
const result = await autocannon({ ...target, connections: 50, duration: seconds, headers });
const loadEndedAt = performance.now();
await stop();
const stoppedAt = performance.now();

const file = readdirSync(work).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written');
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const profile = JSON.parse(readFileSync(join(work, file), 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; endTime: number };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
// Only the measured run: the samples of its last `seconds` before the shutdown (start-up, the
// warm-up and the shutdown itself are left out).
const stamps: number[] = [];
profile.timeDeltas.reduce((at, delta) => (stamps.push(at + delta), at + delta), 0);
const end = stamps.at(-1) ?? 0;
const lastRequest = end - shutdownUs();
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  const at = stamps[i] ?? 0;
  if (at < lastRequest - seconds * 1e6 || at > lastRequest) return;
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

/** How long the process ran after the load stopped: measured from the parent's side. */
function shutdownUs(): number {
  return (stoppedAt - loadEndedAt) * 1000;
}

/** Which part of the service a frame belongs to, by where its code lives. */
function partOf(frame: ProfileNode['callFrame']): string {
  const at = frame.url;
  if (frame.functionName === '(idle)' || frame.functionName === '(program)' || frame.functionName === '(garbage collector)') return frame.functionName;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(at);
  if (pkg) return `npm: ${pkg[1]}`;
  if (at.includes('/dist/')) return `ours: ${at.slice(at.indexOf('/dist/') + 6)}`;
  if (at.startsWith('node:')) return `node: ${at.slice(5).split('/')[0]}`;
  return at === '' ? `native: ${frame.functionName || '(anonymous)'}` : at;
}
const parts = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (node) parts.set(partOf(node.callFrame), (parts.get(partOf(node.callFrame)) ?? 0) + us);
}
const requests = result.requests.total;
const busy = [...parts].filter(([part]) => part !== '(idle)').reduce((sum, [, us]) => sum + us, 0);
process.stdout.write(`${login ? 'POST /v1/auth/login' : path} with ${headers['x-api-key'] === undefined ? 'Bearer' : 'X-API-Key'}: ${requests} requests in ${seconds} s, ${Math.round(result.requests.average)} req/s, ` + `${(busy / requests).toFixed(1)} µs of main-thread CPU per request\n\n| part | µs/request | share |\n|---|---:|---:|\n`);
for (const [part, us] of [...parts].sort((a, b) => b[1] - a[1]).filter(([part]) => part !== '(idle)').slice(0, 40)) {
  process.stdout.write(`| ${part} | ${(us / requests).toFixed(2)} | ${((100 * us) / busy).toFixed(1)}% |\n`);
}
demoDb.remove();
