import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../helpers/harness.js';
import { apiKeyLogin, pairOf } from '../auth/auth-helpers.js';
import { letOthersReach } from '../helpers/reach.js';
import { expectUnavailable } from '../helpers/unavailable.js';

/**
 * File permissions do not bind root: as root the test runs with the effective uid of `nobody`
 * (reversible: the real uid stays root), so that a 0444 file is read-only to it as it is to
 * a service account.
 */
/** uid of `nobody` and gid of `nogroup` on Debian. */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

// On an SQLite file the process could not write, /readyz said 200 ready
// while every login answered 500.
describe('an SQLite file the process cannot write', () => {
  let dir: string;
  let file: string;
  let t: Harness;
  let apiKey: string;
  const setMode = (mode: number) => {
    for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, mode);
  };

  beforeAll(async () => {
    if (asRoot) {
      // As nobody, the process still loads code (better-sqlite3's binding, the reader thread) from the checkout.
      letOthersReach(fileURLToPath(new URL('../../package.json', import.meta.url)));
      // The group too: with root's group a 0700 ancestor's (empty) group bits would apply, not its other bits.
      process.setegid?.(NOBODY);
      process.seteuid?.(NOBODY);
    }
    dir = mkdtempSync(join(tmpdir(), 'sportsdata-readonly-'));
    file = join(dir, 'db.sqlite');
    const setup = await harness({ dialect: 'sqlite', databaseUrl: `sqlite:${file}` });
    apiKey = (await setup.client()).apiKey;
    await setup.close();
    // Read-only before the service opens it, as after a restore or a wrong deployment.
    setMode(0o444);
    t = await harness({ dialect: 'sqlite', databaseUrl: `sqlite:${file}` });
  });
  afterAll(async () => {
    await t?.close();
    if (asRoot) {
      process.seteuid?.(0);
      process.setegid?.(0);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('is not ready and answers 503 to writes; made writable again, it is ready and logs in without a restart', async () => {
    expectUnavailable(await t.anonymous.get('/readyz'));
    expectUnavailable(await apiKeyLogin(t, apiKey));
    expect((await t.anonymous.get('/healthz')).statusCode).toBe(200);
    // Reads still work: authenticating an API key reads the client.
    expect((await t.as({ apiKey }).get('/v1/account/config')).statusCode).toBe(200);

    setMode(0o644);
    // The connection is reopened at most once a second: poll for a few.
    let ready = await t.anonymous.get('/readyz');
    for (let i = 0; i < 30 && ready.statusCode !== 200; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await t.anonymous.get('/readyz');
    }
    expect(ready.statusCode, ready.body).toBe(200);
    pairOf(await apiKeyLogin(t, apiKey));
  });
});
