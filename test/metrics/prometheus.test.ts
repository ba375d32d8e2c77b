import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHORIZED_REASONS } from '../../src/modules/auth/index.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { freePort } from '../helpers/free-port.js';

interface VectorSample {
  metric: Record<string, string>;
  value: [number, string];
}

/**
 * A real Prometheus (Debian's package) scrapes the running service every second; PromQL over
 * what it stored must give back the requests and the auth failures the test caused.
 */
describe.each(DIALECTS)('Prometheus scraping the service (%s)', (dialect) => {
  const dir = mkdtempSync(join(tmpdir(), 'sportsdata-prometheus-'));
  let t: Harness;
  let base: string;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl: string;
  let prometheusLog = '';

  const query = async (promql: string): Promise<VectorSample[]> => {
    const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as { status: string; data: { resultType: string; result: VectorSample[] } };
    expect(body.status, promql).toBe('success');
    return body.data.result;
  };
  const scalar = async (promql: string): Promise<number | undefined> => {
    const [first] = await query(promql);
    return first === undefined ? undefined : Number(first.value[1]);
  };
  /** Polls until `accept` takes what `promql` gives (a scrape a second, so a few seconds at most). */
  const eventually = async (promql: string, accept: (value: number | undefined) => boolean): Promise<number | undefined> => {
    let value: number | undefined;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(250)) {
      // Refused while Prometheus starts.
      value = await scalar(promql).catch(() => undefined);
      if (accept(value)) return value;
    }
    throw new Error(`${promql} stayed at ${String(value)}; prometheus said:\n${prometheusLog}`);
  };

  beforeAll(async () => {
    t = await harness({ dialect });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const target = new URL(base).host;
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    const config = join(dir, 'prometheus.yml');
    writeFileSync(
      config,
      ['global:', '  scrape_interval: 1s', '  evaluation_interval: 1s', 'scrape_configs:', '  - job_name: sportsdata', '    scrape_timeout: 900ms', '    static_configs:', `      - targets: ['${target}']`, ''].join('\n'),
    );
    prometheus = spawn(
      'prometheus',
      [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    prometheus.stderr?.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString('utf8')));
    // Ready, and the service scraped at least once.
    await eventually('up{job="sportsdata"}', (up) => up === 1);
  });
  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      prometheus.kill('SIGTERM');
      await once(prometheus, 'exit');
    }
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('PromQL gives back the requests and the auth failures by reason that the test caused', async () => {
    const { apiKey } = await t.client();
    const get = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${base}${path}`, { headers })).status;
    for (let i = 0; i < 12; i++) expect(await get('/v1/references/sports', { 'x-api-key': apiKey })).toBe(200);
    for (let i = 0; i < 5; i++) expect(await get('/v1/references/sports')).toBe(401);
    for (let i = 0; i < 3; i++) expect(await get('/v1/references/sports', { 'x-api-key': 'sdk_forged' })).toBe(401);
    for (let i = 0; i < 2; i++) expect(await get('/v1/references/sports', { authorization: 'Bearer not.a.token' })).toBe(401);

    // Exact counts from the raw counters, once a scrape after the last request has landed (a
    // scrape taken between the 200s and the 401s would show all 200s but only some 401s).
    const all = 'sum(http_request_duration_seconds_count{job="sportsdata",route="/v1/references/sports"})';
    expect(await eventually(all, (v) => v === 22)).toBe(22);
    expect(await scalar('sum(http_requests_total{job="sportsdata",route="/v1/references/sports",status_code="200"})')).toBe(12);
    expect(await scalar('sum(http_requests_total{job="sportsdata",route="/v1/references/sports",status_code="401"})')).toBe(10);

    const byReason = new Map((await query('sum by (reason) (auth_failures_total{job="sportsdata"})')).map((s) => [s.metric.reason, Number(s.value[1])]));
    const expected: Record<string, number> = { missing_credentials: 5, invalid_credentials: 3, token_invalid: 2 };
    // Every reason is there, at 0 unless the test caused it.
    for (const reason of UNAUTHORIZED_REASONS) expect(byReason.get(reason), reason).toBe(expected[reason] ?? 0);

    // Rates need two scrapes in the window; Prometheus extrapolates them, so only their sign is exact.
    expect(await eventually('sum(rate(http_requests_total{job="sportsdata"}[10s]))', (v) => v !== undefined && v > 0)).toBeGreaterThan(0);
    expect(await eventually('sum(increase(auth_failures_total{job="sportsdata"}[30s]))', (v) => v !== undefined && v >= 10)).toBeGreaterThanOrEqual(10);
  });

  it('promtool check metrics passes on a scrape: no error and no lint problem', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
