import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { ROOT } from '../helpers/process.js';

const ADMIN_TOKEN = 'readme-admin-token-readme-admin-token-42';

/**
 * The README's shell examples, as written. Blocks that install or start the server (`npm …`) are
 * left out: the test starts the server itself, as `npm start` does, in a directory of its own.
 */
function readmeSessions(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '').filter((block) => !/\bnpm (ci|start|test)\b/.test(block));
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
 * The README's examples work when followed in order (the admin examples used a
 * $CLIENT_ID they had not set, and switched the demo client to OAuth). Run against the real
 * server, started with its defaults in an empty directory, as a fresh clone is.
 */
describe('the README examples', () => {
  let dir: string;
  let origin: string;
  let server: ChildProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sportsdata-readme-'));
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // The project's node and npx come first, as in an npm script.
    env = { PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? dir, ADMIN_TOKEN };
    const tsx = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
    server = spawn(process.execPath, ['--import', tsx, join(ROOT, 'src/server.ts')], {
      cwd: dir,
      env: { ...env, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + 100_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
      const ready = await fetch(`${origin}/readyz`).then((res) => res.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error('the server did not become ready');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 120_000);
  afterAll(async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('run in order against the server, and the demo client keeps its auth_method', async () => {
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
});
