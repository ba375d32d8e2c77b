import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OnboardedClient } from '../helpers/clients.js';
import { type Harness, harness } from '../helpers/harness.js';
import { expectUnavailable } from '../helpers/unavailable.js';

/**
 * Another process (a CLI import, another worker) holding SQLite's write lock for `holdMs`:
 * BEGIN IMMEDIATE and a write, then COMMIT. Resolves once the lock is taken, with the exit to come.
 */
async function holdWriteLock(file: string, holdMs: number): Promise<{ exited: Promise<unknown> }> {
  const script = `
    const db = new (require('better-sqlite3'))(process.argv[1]);
    db.exec('begin immediate');
    db.exec("update change_versions set version = version + 1 where name = 'clients'");
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('commit'); db.close(); }, Number(process.argv[2]));
  `;
  const child = spawn(process.execPath, ['-e', script, file, String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  await once(child.stdout as NodeJS.ReadableStream, 'data');
  return { exited };
}

/** Milliseconds of the slowest of a few /healthz calls made one after another. */
async function slowestHealthz(t: Harness, calls: number): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < calls; i += 1) {
    const started = performance.now();
    expect((await t.anonymous.get('/healthz')).statusCode).toBe(200);
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return slowest;
}

// A CLI import on the server's SQLite file froze the server (busy_timeout
// sleeps inside the synchronous driver: /healthz took 5,017 ms) and a login answered 500
// "database is locked".
describe('an SQLite file locked by another writer', () => {
  let dir: string;
  let t: Harness;
  let client: OnboardedClient;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sportsdata-busy-'));
    t = await harness({ dialect: 'sqlite', databaseUrl: `sqlite:${join(dir, 'db.sqlite')}` });
    client = await t.client();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a login waits for the lock without blocking the event loop, then succeeds', async () => {
    const child = await holdWriteLock(join(dir, 'db.sqlite'), 1500);
    const started = performance.now();
    const login = t.login(client);
    // Generous: a correctness bound (the loop is free), not a performance figure.
    expect(await slowestHealthz(t, 8)).toBeLessThan(500);
    await login;
    expect(performance.now() - started).toBeGreaterThan(1000);
    await child.exited;
  });

  it('a lock held longer than the wait (5 s) answers 503 with Retry-After, not 500', async () => {
    const child = await holdWriteLock(join(dir, 'db.sqlite'), 7000);
    const login = t.as(client).post('/v1/auth/login');
    expect(await slowestHealthz(t, 5)).toBeLessThan(500);
    expectUnavailable(await login);
    // The database is busy, not broken: the node stays ready.
    expect((await t.anonymous.get('/readyz')).statusCode).toBe(200);
    await child.exited;
    await t.login(client);
  });
});
