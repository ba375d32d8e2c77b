import { appendFileSync } from 'node:fs';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import type { Harness } from '../helpers/harness.js';
import type { FuzzSetup } from './openapi-arbitraries.js';
import type { Operation } from './openapi-operations.js';
import { failureList, fuzzOptionsFromEnv, reproduction, runFuzz } from './fuzz-property.js';
import { FUZZ_DEMO_SCALE, prepareFuzzing } from './fuzz-setup.js';
import { DEMO_NOW } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';

/**
 * Requests generated from `/openapi.json` for every operation (valid, boundary, wrong-typed,
 * missing, unknown and malformed inputs, odd credentials and headers, stray methods and
 * paths) through the real app on a demo dataset: no answer may be a 5xx, and every error must
 * be in the error shape. CI runs a few hundred requests per database; `FUZZ_RUNS` makes it
 * longer (the bench: `npx tsx bench/fuzz.ts`), and `FUZZ_SEED`/`FUZZ_PATH` replay a failure.
 *
 * Nothing of the document is left out. Operations outside it are reached by the stray
 * requests: `/docs` and its assets, `/openapi.json`.
 */
const CI_RUNS = 1000;
const options = fuzzOptionsFromEnv(process.env, CI_RUNS);
// About 5 ms a request on a busy two-core machine, with room for PostgreSQL and shrinking.
const timeout = 60_000 + options.runs * 20;

describe.each(DIALECTS)('fuzzing every operation of the OpenAPI document (%s)', (dialect) => {
  let t: Harness;
  let operations: Operation[];
  let setup: FuzzSetup;

  beforeAll(async () => {
    // The demo is made at a pinned moment: the dataset, and so the run, never depends on the day.
    t = await demoHarness({ dialect, env: { LOG_LEVEL: 'warn' }, now: DEMO_NOW, scale: FUZZ_DEMO_SCALE });
    ({ operations, setup } = await prepareFuzzing(t));
  }, 120_000);
  afterAll(async () => t.close());

  it(`answers every generated request below 500 and every error in the error shape (${dialect})`, async () => {
    const started = Date.now();
    // An event stream never ends by itself: its answers are read up to their first bytes.
    const streams = new Set(operations.filter((o) => o.eventStream).map((o) => o.path));
    const inject = (o: InjectOptions) => (streams.has(String(o.url).split('?')[0] ?? '') ? t.anonymous.eventStream(o) : t.anonymous.request(o));
    const { stats, failure } = await runFuzz({ inject, logs: () => t.logs() }, operations, setup, options);
    const report = process.env.FUZZ_REPORT;
    if (report) appendFileSync(report, `${JSON.stringify({ dialect, seed: options.seed, runs: options.runs, ms: Date.now() - started, ...stats })}\n`);
    if (failure !== undefined) expect.fail(reproduction(dialect, options, failure));
    if (stats.failures.length > 0) expect.fail(`FUZZ_SEED=${options.seed} FUZZ_RUNS=${options.runs} on ${dialect}:\n${failureList(stats)}`);
    // Every operation was sent requests, so a change to the document cannot quietly shrink the fuzzing.
    if (options.path === undefined) expect(operations.map((o) => o.id).filter((id) => stats.byOperation[id] === undefined)).toEqual([]);
  }, timeout);
});
