import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET } from '../helpers/app.js';
import { count } from '../helpers/metrics.js';
import { freePort } from '../helpers/free-port.js';
import { getOnce } from '../helpers/get-once.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const HARNESS = 'test/helpers/cluster-metrics-harness.ts';

interface HarnessEvent {
  harness: string;
  /** `local`: each worker's own exposition; `probed`: how one worker's scrape went. */
  answers?: Array<{ pid: number; text?: string; scope?: string; fallback?: string | null }>;
}

/** The harness as a child process: its events in order, and a way to send it a command. */
function startHarness(env: Record<string, string>): { child: ChildProcess; next(event: string): Promise<HarnessEvent>; send(line: string): void } {
  const child = spawn(process.execPath, ['--import', 'tsx', HARNESS], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const events: HarnessEvent[] = [];
  const waiting: Array<{ event: string; resolve: (e: HarnessEvent) => void }> = [];
  const deliver = () => {
    for (const [i, w] of waiting.entries()) {
      const found = events.findIndex((e) => e.harness === w.event);
      if (found >= 0) {
        const [event] = events.splice(found, 1);
        waiting.splice(i, 1);
        if (event) w.resolve(event);
        return deliver();
      }
    }
  };
  // The workers' own log lines share stdout; the harness's lines carry a `harness` field.
  createInterface({ input: child.stdout ?? process.stdin }).on('line', (line) => {
    if (!line.startsWith('{"harness"')) return;
    events.push(JSON.parse(line) as HarnessEvent);
    deliver();
  });
  return {
    child,
    next: (event) =>
      new Promise((resolve, reject) => {
        waiting.push({ event, resolve });
        deliver();
        child.once('exit', (code) => reject(new Error(`the harness exited (${String(code)}) before "${event}"`)));
      }),
    send: (line) => child.stdin?.write(`${line}\n`),
  };
}

describe('one scrape of a node of two cluster workers sees both', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-cluster-metrics-'));
  let harness: ReturnType<typeof startHarness>;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    harness = startHarness({ PORT: String(port), WORKERS: '2', DATA_DIR: dataDir, JWT_SECRET: TEST_JWT_SECRET, NODE_ENV: 'development' });
    await harness.next('ready');
  });
  afterAll(() => {
    harness.child.stdin?.end();
    harness.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts the requests of every worker, whichever worker takes the scrape', async () => {
    for (let i = 0; i < 30; i++) expect((await getOnce(port, '/healthz')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await getOnce(port, '/v1/account/config')).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await getOnce(port, '/v1/account/config', { 'x-api-key': 'sdk_bad' })).status).toBe(401);

    // Several scrapes, each on a new connection, so that both workers take some.
    for (let i = 0; i < 6; i++) {
      const scrape = await getOnce(port, '/metrics');
      expect(scrape.status).toBe(200);
      expect(count(scrape.body, 'http_requests_total', { method: 'GET', route: '/healthz', status_code: '200' })).toBe(30);
      expect(count(scrape.body, 'http_request_duration_seconds_count', { method: 'GET', route: '/healthz' })).toBe(30);
      expect(count(scrape.body, 'http_requests_total', { method: 'GET', route: '/v1/account/config', status_code: '401' })).toBe(6);
      expect(count(scrape.body, 'auth_failures_total', { reason: 'missing_credentials' })).toBe(4);
      expect(count(scrape.body, 'auth_failures_total', { reason: 'invalid_credentials' })).toBe(2);
    }

    // And each worker's own registry holds only its share: both served, and the shares add up.
    harness.send('local');
    const { answers = [] } = await harness.next('local');
    expect(answers).toHaveLength(2);
    const healthz = answers.map((a) => count(a.text ?? '', 'http_requests_total', { method: 'GET', route: '/healthz', status_code: '200' }));
    const scrapes = answers.map((a) => count(a.text ?? '', 'http_requests_total', { method: 'GET', route: '/metrics', status_code: '200' }));
    expect(healthz.every((n) => n > 0 && n < 30)).toBe(true);
    expect(healthz.reduce((a, b) => a + b)).toBe(30);
    expect(scrapes.every((n) => n > 0)).toBe(true);
  });

  it("a worker whose primary does not answer falls back to its own counts, and says so", async () => {
    harness.send('probe');
    const before = await harness.next('probed');
    expect(before.answers).toEqual([expect.objectContaining({ scope: 'node', fallback: null })]);

    harness.send('stop-aggregator');
    await harness.next('stopped');
    harness.send('probe');
    const after = await harness.next('probed');
    expect(after.answers).toEqual([expect.objectContaining({ scope: 'process', fallback: 'the primary did not answer within 300 ms' })]);
  });
});
