import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiKeyLogin, pairOf } from '../auth/auth-helpers.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { expectUnavailable } from '../helpers/unavailable.js';

/**
 * A disk that really fills up: a small tmpfs, mounted for the test (root only, as CI runs; a
 * developer's unprivileged run skips it), holding the SQLite file, or a PostgreSQL tablespace that
 * the test database lives in. A filler file takes every free byte; removing it frees them. Writes
 * then fail as on a full disk in production (SQLITE_FULL; PostgreSQL's 53100, "could not extend
 * file"), with no stand-in of ours in between.
 */
interface SmallDisk {
  dir: string;
  fill(): void;
  free(): void;
  unmount(): void;
}

function mountSmallDisk(size: string, owner?: { uid: number; gid: number }): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'sportsdata-full-disk-'));
  const ownership = owner ? `,uid=${owner.uid},gid=${owner.gid},mode=0700` : '';
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}${ownership}`, 'tmpfs', dir]);
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'w');
      try {
        // Large pieces, then single pages, until not one more byte fits.
        for (const piece of [Buffer.alloc(1024 * 1024, 1), Buffer.alloc(4096, 1), Buffer.alloc(1, 1)]) {
          for (;;) {
            try {
              writeSync(fd, piece);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(serverUrl: string, statement: string): Promise<Array<Record<string, string>>> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query<Record<string, string>>(statement)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A database of its own on the test server, in a tablespace on a small disk (the server is local:
 * the tablespace directory belongs to the server's own user, like its data directory).
 */
async function postgresOnSmallDisk(serverUrl: string): Promise<{ url: string; disk: SmallDisk; drop: () => Promise<void> }> {
  const [row] = await adminQuery(serverUrl, "select setting from pg_settings where name = 'data_directory'");
  const { uid, gid } = statSync(row?.setting ?? '');
  const disk = mountSmallDisk('64m', { uid, gid });
  const name = `full_disk_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `create tablespace ${name} location '${disk.dir}'`);
  await adminQuery(serverUrl, `create database ${name} tablespace ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    disk,
    async drop() {
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
      await adminQuery(serverUrl, `drop tablespace if exists ${name}`);
    },
  };
}

const asRoot = process.getuid?.() === 0;

describe.each(DIALECTS)('readiness on a full disk (%s)', (dialect) => {
  let t: Harness;
  let disk: SmallDisk | undefined;
  let drop = async () => {};
  let client: OnboardedClient;

  beforeAll(async () => {
    if (!asRoot) return;
    let databaseUrl: string;
    if (dialect === 'sqlite') {
      disk = mountSmallDisk('16m');
      databaseUrl = `sqlite:${join(disk.dir, 'db.sqlite')}`;
    } else {
      const onDisk = await postgresOnSmallDisk(inject('postgresUrl'));
      ({ disk, drop } = onDisk);
      databaseUrl = onDisk.url;
    }
    t = await harness({ dialect, databaseUrl });
    client = await t.client();
  });
  afterAll(async () => {
    await t?.close();
    await drop();
    disk?.unmount();
  });

  it.skipIf(!asRoot)('is not ready while writes fail for want of space, and ready again once space is freed, without a restart or a client write', async () => {
    expect((await t.anonymous.get('/readyz')).statusCode).toBe(200);
    disk?.fill();

    // A login writes its refresh token: on a full disk that is a 503, as every write is.
    expectUnavailable(await apiKeyLogin(t, client.apiKey));
    expectUnavailable(await apiKeyLogin(t, client.apiKey));
    // So the node must leave the load balancer's pool: it cannot do what it is sent for.
    expectUnavailable(await t.anonymous.get('/readyz'));
    expectUnavailable(await t.anonymous.get('/readyz'));
    expect((await t.anonymous.get('/healthz')).statusCode).toBe(200);

    disk?.free();
    // Readiness itself proves that a write needing space succeeds again: no client write is needed.
    let ready = await t.anonymous.get('/readyz');
    for (let i = 0; i < 50 && ready.statusCode !== 200; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await t.anonymous.get('/readyz');
    }
    expect(ready.statusCode, ready.body).toBe(200);
    pairOf(await apiKeyLogin(t, client.apiKey));
  });
});
