import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { ROOT } from '../helpers/process.js';
import { codeBlocks, readDoc, section } from './markdown.js';

const ADMIN_TOKEN = 'readme-admin-token-readme-admin-token-42';
/** How long the server may take to make the demo dataset and answer /readyz. */
const READY_MS = 240_000;

/**
 * The README's shell examples, as written. Blocks that install or start the server (`npm …`) are
 * left out: the test starts the server itself, as `npm start` does, in a directory of its own.
 */
/** The README's sessions, run in order: not the commands that start the server or the stream, which never ends by itself. */
function readmeSessions(): string[] {
  return codeBlocks(readDoc('README.md'), 'sh').filter((block) => !/\bnpm (ci|start|test)\b/.test(block) && !block.includes('/v1/stream/odds'));
}

/** The README's stream example: one curl that follows the odds stream until stopped. */
function readmeStream(): string {
  const [stream, ...more] = codeBlocks(readDoc('README.md'), 'sh').filter((block) => block.includes('/v1/stream/odds'));
  if (stream === undefined || more.length > 0) throw new Error('the README has one stream example');
  return stream;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  // Every curl fails the script on an HTTP error, so an example that answers 401 or 404 fails the test.
  const strict = `set -euo pipefail\ncurl() { command curl --fail-with-body --show-error "$@"; }\n${script}`;
  return new Promise((resolve) => {
    execFile('bash', ['-c', strict], { cwd, env, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` });
    });
  });
}

/**
 * The commands the docs give, run as written against the real server, started with its defaults
 * in an empty directory, as a fresh clone is: the README's examples followed in order (they once
 * used a $CLIENT_ID they had not set, and switched the demo client to OAuth), operations.md's SQLite
 * backups on a fresh checkout (they once failed for want of `backups/`), and api.md's file downloads
 * one after the other (two once had one name).
 */
describe('the documented commands', () => {
  let dir: string;
  let origin: string;
  let server: ChildProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sportsdata-readme-'));
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // The project's node and npx come first, as in an npm script. The server runs with its defaults, the demo ticker on
    // (DEMO_TICKER_PER_SECOND unset): the README's stream example is checked against it; no check here needs a still slate.
    env = { PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? dir, ADMIN_TOKEN };
    const tsx = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
    server = spawn(process.execPath, ['--import', tsx, join(ROOT, 'src/server.ts')], {
      cwd: dir,
      env: { ...env, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // The first start makes the whole demo dataset before it serves: a minute alone, and more than
    // twice that on a two-core machine busy with the suite's other worker and other work.
    const deadline = Date.now() + READY_MS;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
      const ready = await fetch(`${origin}/readyz`).then((res) => res.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error('the server did not become ready');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, READY_MS + 20_000);
  afterAll(async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('the README’s examples run in order against the server, and the demo client keeps its auth_method', async () => {
    const sessions = readmeSessions();
    // "Try it" (a client) and "Onboard a client" (an operator).
    expect(sessions).toHaveLength(2);
    for (const session of sessions) {
      const result = await bash(session.replaceAll('http://127.0.0.1:8080', origin), dir, env);
      expect(result.code, `${session}\n---\n${result.output}`).toBe(0);
    }

    const demo = JSON.parse(readFileSync(join(dir, 'data', 'demo-credentials.json'), 'utf8')) as { api_key: string; client_id: string };
    const config = await fetch(`${origin}/v1/account/config`, { headers: { 'x-api-key': demo.api_key } });
    expect(await config.json()).toMatchObject({ client_id: demo.client_id, auth_method: 'both' });
    const clients = (await (await fetch(`${origin}/admin/v1/clients`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as {
      results: Array<{ name: string; auth_method: string }>;
    };
    expect(clients.results).toContainEqual(expect.objectContaining({ name: 'Acme', auth_method: 'oauth' }));
  }, 120_000);

  it('the README’s stream example shows the demo’s prices moving within a few seconds of a fresh start (the demo ticker is on by default)', async () => {
    const demo = JSON.parse(readFileSync(join(dir, 'data', 'demo-credentials.json'), 'utf8')) as { api_key: string };
    // curl ends with 28 when its time is up: the stream never ends by itself.
    const script = readmeStream()
      .replaceAll('http://127.0.0.1:8080', origin)
      .split('\n')
      .map((line) => (line.startsWith('curl ') ? `${line.replace('curl -sS -N', 'curl -sS -N --max-time 5')} || [ $? -eq 28 ]` : line))
      .join('\n');
    const result = await bash(script, dir, { ...env, API_KEY: demo.api_key });
    expect(result.code, result.output).toBe(0);
    expect(result.output.match(/^event: odds$/gm)?.length ?? 0, result.output).toBeGreaterThanOrEqual(5);
    expect(result.output).toMatch(/^event: board$/m);
  });

  it('operations.md’s SQLite backups run as written on a fresh checkout, each copy a whole database, in a folder git ignores', async () => {
    const backups = codeBlocks(section(readDoc('docs/operations.md'), 'Backups'), 'sh').filter((block) => block.includes('data/sportsdata.db'));
    expect(backups).toHaveLength(2);
    expect(existsSync(join(dir, 'backups'))).toBe(false);
    // The commands run in the project directory, whose node_modules has the driver.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    for (const block of backups) {
      const result = await bash(block, dir, env);
      expect(result.code, `${block}\n---\n${result.output}`).toBe(0);
    }
    const copies = readdirSync(join(dir, 'backups'));
    // The online backup, the compact copy and the driver's copy (the last may share the first's second: then it replaced it).
    expect(copies.length).toBeGreaterThanOrEqual(2);
    for (const copy of copies) {
      const database = new Sqlite(join(dir, 'backups', copy), { readonly: true });
      const rows = (table: string) => (database.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      try {
        expect(rows('clients'), copy).toBeGreaterThan(0);
        expect(rows('events'), copy).toBeGreaterThan(0);
      } finally {
        database.close();
      }
    }
    expect(execFileSync('git', ['check-ignore', 'backups/sportsdata-20260101T000000Z.db'], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe('backups/sportsdata-20260101T000000Z.db');
  });

  it('operations.md’s real data loads as written: the samples into the demo wait in the review queue, into a database of their own they land', async () => {
    const [served = '', own = ''] = codeBlocks(section(readDoc('docs/operations.md'), 'Loading real data'), 'sh');
    const project = mkdtempSync(join(tmpdir(), 'sportsdata-real-'));
    try {
      // The commands run in the project directory: its examples and its node_modules.
      symlinkSync(join(ROOT, 'examples'), join(project, 'examples'));
      symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
      const loaded = await bash(served.replaceAll('http://127.0.0.1:8080', origin), project, env);
      expect(loaded.code, `${served}\n---\n${loaded.output}`).toBe(0);
      // The last answer is the queue: the samples' clubs are not the demo's.
      expect(loaded.output).toContain('"entity_type":"team"');
      const imported = await bash(own, project, env);
      expect(imported.code, `${own}\n---\n${imported.output}`).toBe(0);
      const database = new Sqlite(join(project, 'data', 'real.db'), { readonly: true });
      try {
        const count = (query: string) => (database.prepare(query).get() as { n: number }).n;
        expect(count('select count(*) as n from events')).toBeGreaterThanOrEqual(30);
        expect(count('select count(*) as n from odds_history')).toBeGreaterThan(0);
        expect(count('select count(*) as n from odds_grades')).toBeGreaterThan(0);
      } finally {
        database.close();
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);

  it('api.md’s file downloads run one after the other, each into a file of its own', async () => {
    const [downloads = ''] = codeBlocks(section(readDoc('docs/api.md'), 'Price history files and exports'), 'sh');
    expect(downloads.match(/^curl /gm)).toHaveLength(3);
    const files = join(dir, 'downloads');
    mkdirSync(files);
    const demo = JSON.parse(readFileSync(join(dir, 'data', 'demo-credentials.json'), 'utf8')) as { api_key: string };
    const result = await bash(downloads.replaceAll('http://127.0.0.1:8080', origin), files, { ...env, API_KEY: demo.api_key });
    expect(result.code, `${downloads}\n---\n${result.output}`).toBe(0);
    expect(readdirSync(files).sort()).toEqual(['nba-last-30-days.ndjson', 'odds-history-event-1-american.csv', 'odds-history-event-1.csv']);
    // The export works on the demo whatever the day: it has the changes of the league's games (it once named days the demo has none of).
    const changes = readFileSync(join(files, 'nba-last-30-days.ndjson'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { event_id: number; changed_at: string });
    expect(changes.length).toBeGreaterThan(0);
    // League 12 is the NBA, as the page says.
    const leagues = (await (await fetch(`${origin}/v1/references/leagues?search=nba`, { headers: { 'x-api-key': demo.api_key } })).json()) as { results: unknown[] };
    expect(leagues.results).toContainEqual(expect.objectContaining({ id: 12, key: 'nba' }));
  });
});
