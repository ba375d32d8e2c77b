import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { localDemo } from './local-demo.js';
import { type Running, startBare } from './processes.js';
import { recordAnswer } from './same-bytes.js';
import { bearerFor } from './scenarios/data.js';

/**
 * `npx tsx bench/profile.ts [--path /v1/account/config] [--api-key] [--login] [--seconds 10]`: the API under
 * load with `node --cpu-prof`, then its CPU time split by part (self time of the functions of each
 * part, from the V8 profile), in µs per request: where a small answer's time goes (decision 0145).
 * Beside it, the same-bytes anchor (bench/bare-server.ts sending the API's answer to that request)
 * under the same load and profile, so that each part reads against what any node:http server pays.
 * `--login` loads POST /v1/auth/login with the API key instead (a write: SHA-256, the insert; no anchor).
 * `--functions` splits by function (part, name and line) instead of by part.
 */
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const path = flag('path') ?? '/v1/account/config';
const seconds = Number(flag('seconds') ?? 10);
const login = args.includes('--login');
const byFunction = args.includes('--functions');
const demoDb = localDemo('profile');

/** A profiled run: the parts' self time in µs, the requests served and their rate. */
interface Profiled {
  parts: Map<string, number>;
  requests: number;
  perSecond: number;
}

/** Loads `server` (started with --cpu-prof into `dir`) for a warm-up and `seconds`, stops it, and splits its profile by part. */
async function profiled(server: Running, dir: string, target: { url: string; method?: 'POST' }, headers: Record<string, string>): Promise<Profiled> {
  await autocannon({ ...target, connections: 50, duration: 2, headers });
  const result = await autocannon({ ...target, connections: 50, duration: seconds, headers });
  const loadEndedAt = performance.now();
  await server.stop();
  const shutdownUs = (performance.now() - loadEndedAt) * 1000;
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  return { parts: partsOf(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile, shutdownUs), requests: result.requests.total, perSecond: result.requests.average };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per part, over the measured run only: the last `seconds` before the shutdown (start-up, warm-up and shutdown left out). */
function partsOf(profile: Profile, shutdownUs: number): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const stamps: number[] = [];
  profile.timeDeltas.reduce((at, delta) => (stamps.push(at + delta), at + delta), 0);
  const lastRequest = (stamps.at(-1) ?? 0) - shutdownUs;
  const parts = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const at = stamps[i] ?? 0;
    const node = byId.get(id);
    if (!node || at < lastRequest - seconds * 1e6 || at > lastRequest) return;
    const part = byFunction ? `${partOf(node.callFrame)} ${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}` : partOf(node.callFrame);
    parts.set(part, (parts.get(part) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  for (const part of parts.keys()) if (part.startsWith('(idle)')) parts.delete(part);
  return parts;
}

/** Which part of the service a frame belongs to, by where its code lives. */
function partOf(frame: ProfileNode['callFrame']): string {
  const at = frame.url;
  if (frame.functionName === '(idle)' || frame.functionName === '(program)' || frame.functionName === '(garbage collector)') return frame.functionName;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(at);
  if (pkg) return `npm: ${pkg[1]}`;
  if (at.includes('/dist/')) return `ours: ${at.slice(at.indexOf('/dist/') + 6)}`;
  if (at.includes('/bench/')) return `bench: ${at.slice(at.indexOf('/bench/') + 7)}`;
  if (at.startsWith('node:')) return `node: ${at.slice(5).split('/')[0]}`;
  return at === '' ? `native: ${frame.functionName || '(anonymous)'}` : at;
}

const total = (run: Profiled) => [...run.parts.values()].reduce((sum, us) => sum + us, 0);
const perRequest = (run: Profiled | undefined, part: string) => (run ? ((run.parts.get(part) ?? 0) / run.requests).toFixed(2) : '');

try {
  const api = await demoDb.start({ nodeArgs: ['--cpu-prof', '--cpu-prof-dir', demoDb.work] });
  const demo = demoDb.credentials();
  const headers: Record<string, string> = args.includes('--api-key') || login ? { 'x-api-key': demo.api_key } : { authorization: await bearerFor(api.url, demo) };
  const answer = login ? undefined : (await recordAnswer(api.url, { name: path, requests: [{ method: 'GET', path, headers }] })).answer;
  const target = login ? { url: `${api.url}/v1/auth/login`, method: 'POST' as const } : { url: `${api.url}${path}` };
  const measured = await profiled(api, demoDb.work, target, headers);
  let anchor: Profiled | undefined;
  if (answer) {
    const anchorDir = mkdtempSync(join(tmpdir(), 'sportsdata-anchor-'));
    try {
      const bare = await startBare({ nodeArgs: ['--cpu-prof', '--cpu-prof-dir', anchorDir] });
      await bare.answerWith(answer);
      anchor = await profiled(bare, anchorDir, { url: `${bare.url}${path}` }, headers);
    } finally {
      rmSync(anchorDir, { recursive: true, force: true });
    }
  }
  const credential = headers['x-api-key'] === undefined ? 'Bearer' : 'X-API-Key';
  process.stdout.write(
    `${login ? 'POST /v1/auth/login' : path} with ${credential}: ${measured.requests} requests in ${seconds} s, ${Math.round(measured.perSecond)} req/s, ` +
      `${(total(measured) / measured.requests).toFixed(1)} µs of main-thread CPU per request` +
      (anchor ? `; the same-bytes anchor ${Math.round(anchor.perSecond)} req/s, ${(total(anchor) / anchor.requests).toFixed(1)} µs` : '') +
      `\n\n| part | µs/request | share | anchor µs/request |\n|---|---:|---:|---:|\n`,
  );
  const busy = total(measured);
  const shown = [...measured.parts].sort((a, b) => b[1] - a[1]).slice(0, 40);
  for (const [part, us] of shown) process.stdout.write(`| ${part} | ${(us / measured.requests).toFixed(2)} | ${((100 * us) / busy).toFixed(1)}% | ${perRequest(anchor, part)} |\n`);
  // What the anchor spends in parts the API's top rows do not show (its own handler, mostly).
  for (const [part] of anchor ? [...anchor.parts].filter(([part]) => !shown.some(([name]) => name === part)) : []) {
    process.stdout.write(`| ${part} | | | ${perRequest(anchor, part)} |\n`);
  }
} finally {
  demoDb.remove();
}
