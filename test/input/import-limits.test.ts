import { closeSync, mkdtempSync, openSync, rmSync, ftruncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sportsdata } from '../cli/cli-helpers.js';
import { adminHeaders, TEST_JWT_SECRET } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';

const MiB = 1024 * 1024;

/** A body of `head`, then `unit` repeated up to `bytes`, produced chunk by chunk: the test never holds it. */
function streamedBody(head: string, unit: string, bytes: number): Readable {
  const chunk = Buffer.from(unit.repeat(Math.ceil((64 * 1024) / unit.length)));
  let sent = 0;
  return new Readable({
    read() {
      if (sent === 0) {
        sent += head.length;
        this.push(head);
      } else if (sent < bytes) {
        sent += chunk.length;
        this.push(chunk);
      } else {
        this.push(null);
      }
    },
  });
}

/** The status of a request, how long it took, and how much the process's resident memory grew. */
async function measured(run: () => Promise<{ statusCode: number; body: string }>) {
  const rss = process.memoryUsage().rss;
  const started = performance.now();
  const res = await run();
  return { res, ms: performance.now() - started, grewMiB: (process.memoryUsage().rss - rss) / MiB };
}

// A 100 MB deeply nested body sent to the admin import drove the process to
// 5.2 GB and blocked it for 25 s. The body limit was 256 MiB, and the whole tree was built
// before anything looked at its shape.
describe('POST /admin/v1/import bounds the memory a body may take', () => {
  const t = forSuite(() => harness({ dialect: 'sqlite' }));

  const post = (payload: Readable | string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/admin/v1/import', headers: { ...adminHeaders, 'content-type': 'application/json', ...headers }, payload });

  it('a body declared larger than 64 MiB → 413 at once, unread', async () => {
    const { res, ms } = await measured(() => post(streamedBody('{"sports":[', '1,', 1024), { 'content-length': String(100 * MiB) }));
    expect(res.statusCode, res.body).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(ms).toBeLessThan(1000);
  });

  it('a streamed body (no length) is cut off at 64 MiB → 413, and memory stays bounded', async () => {
    const name = `"${'x'.repeat(1000)}"`;
    const { res, grewMiB } = await measured(() => post(streamedBody('{"sports":[', `{"id":1,"key":"k","name":${name}},`, 100 * MiB)));
    expect(res.statusCode, res.body).toBe(413);
    // What was read is held once, up to the limit; no tree was built. Generous: a bound, not a figure.
    expect(grewMiB).toBeLessThan(400);
  });

  it('a deeply nested body → 422 as soon as it is too deep, without reading the rest', async () => {
    const { res, ms, grewMiB } = await measured(() => post(streamedBody('{"sports":', '[', 100 * MiB)));
    expect(res.statusCode, res.body).toBe(422);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'dataset', rule: 'maxDepth' }] });
    expect(ms).toBeLessThan(1000);
    expect(grewMiB).toBeLessThan(100);
  });

  it('a small deeply nested body → 422, fast', async () => {
    const { res, ms } = await measured(() => post(`{"sports":${'['.repeat(100_000)}${']'.repeat(100_000)}}`));
    expect(res.statusCode, res.body).toBe(422);
    expect(ms).toBeLessThan(1000);
  });

  it('millions of tiny items (each a cheap byte, an expensive object) → 413 before they are built', async () => {
    const { res, ms, grewMiB } = await measured(() => post(streamedBody('{"odds":[', '{},', 60 * MiB)));
    expect(res.statusCode, res.body).toBe(413);
    expect(ms).toBeLessThan(5000);
    expect(grewMiB).toBeLessThan(200);
  });

  it('field names beyond any dataset (one new hidden class per object) → 422 before they are built', async () => {
    const keys = Array.from({ length: 200 }, (_, i) => `{"field${i}":1}`).join(',');
    const res = await post(`{"odds":[${keys}]}`);
    expect(res.statusCode, res.body).toBe(422);
    expect(JSON.parse(res.body).error.details).toEqual([{ field: 'dataset', rule: 'maxFieldNames' }]);
  });
});

describe('sportsdata import FILE bounds the memory a file may take', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sportsdata-import-limits-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, DATA_DIR: dir, JWT_SECRET: TEST_JWT_SECRET };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a file over 64 MiB before reading it', async () => {
    const file = join(dir, 'huge.json');
    // A sparse file: its size is what counts, no disk is used.
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 65 * MiB);
    closeSync(fd);
    const started = performance.now();
    const result = await sportsdata(env, 'import', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*huge\.json is larger than 64 MiB/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses a deeply nested file', async () => {
    const file = join(dir, 'deep.json');
    writeFileSync(file, `{"sports":${'['.repeat(1_000_000)}`);
    const result = await sportsdata(env, 'import', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*nested deeper than 8/);
  });
});
