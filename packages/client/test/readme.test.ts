import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDataset } from '../../../test/import/fixture.js';
import { ROOT, runTypeScript } from './helpers/run.js';
import { runningClock, type Server, startServer } from './helpers/server.js';

/** The "Client SDK" section of the repository's README, up to the next section. */
function sdkSection(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Client SDK\n');
  expect(start, 'the README has a Client SDK section').toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

const blocks = (markdown: string, language: string) => [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1] ?? '');

/**
 * The README's client examples run as written, against the real server (the small
 * dataset, on 5 January 2030 by its clock), and typecheck against the package.
 */
describe('the README’s Client SDK section', () => {
  let server: Server;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startServer({ clock: runningClock(Date.parse('2030-01-05T12:00:00Z')) });
    await server.t.import(smallDataset());
    const client = await server.t.client();
    env = { SPORTS_DATA_API_KEY: client.apiKey, SPORTS_DATA_URL: server.baseUrl, TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json') };
    // A directory standing for the project's: ESM, as the repository's package.json says.
    dir = mkdtempSync(join(tmpdir(), 'sdk-readme-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  });

  it('keeps the README’s first two commands at its top, after the one paragraph a machine with an old node needs first', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const lines = readme.split('\n');
    const block = lines.indexOf('```sh');
    expect(lines.slice(2, block).join(' ')).toMatch(/^With a system `node` older than 22, `npm ci` first prints .*EBADENGINE.* nothing failed\. $/);
    expect(lines.slice(block, block + 4)).toEqual([
      '```sh',
      'npm ci && npm start   # serves the API on http://127.0.0.1:8080 (embedded SQLite, demo data)',
      'npm ci && npm test    # typecheck + the whole suite, on SQLite and on PostgreSQL',
      '```',
    ]);
  });

  it('its TypeScript examples typecheck against the package', () => {
    const files = blocks(sdkSection(), 'ts').map((code, i) => {
      const file = join(dir, `typecheck-${i}.ts`);
      writeFileSync(file, code);
      return file;
    });
    expect(files).toHaveLength(2);
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (config === undefined) throw new Error('no tsconfig.json');
    const program = ts.createProgram(files, { ...config.options, noEmit: true, rootDir: undefined });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('its TypeScript examples run against the server', async () => {
    // As written: they reach the test server through SPORTS_DATA_URL, as the README says.
    const [quickStart = '', errors = ''] = blocks(sdkSection(), 'ts');
    writeFileSync(join(dir, 'quick-start.ts'), quickStart);
    const ran = await runTypeScript(join(dir, 'quick-start.ts'), [], { cwd: dir, env });
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toBe(
      [
        'Acme: tier pro, auth_method both',
        'Boston Celtics',
        'New York Knicks',
        'Boston Celtics Northstar Bet Moneyline home 1.8',
        'Boston Celtics Northstar Bet Moneyline away 2.05',
        'Boston Celtics Kingsbet Total over 1.91',
        '596 requests left this minute',
        '',
      ].join('\n'),
    );

    writeFileSync(join(dir, 'errors.ts'), errors);
    const failed = await runTypeScript(join(dir, 'errors.ts'), [], { cwd: dir, env });
    expect(failed.stderr).toBe('');
    expect(failed.stdout).toMatch(/^404 NOT_FOUND .*no-such-league.* [\w-]+\n$/);
  });

  it('every example command it shows runs against the server', async () => {
    const commands = blocks(sdkSection(), 'sh')
      .flatMap((block) => block.split('\n'))
      .filter((line) => line.startsWith('npx tsx examples/'));
    expect(commands).toHaveLength(2);
    for (const command of commands) {
      const [script = '', ...args] = command.replace('npx tsx ', '').split(' ');
      const ran = await runTypeScript(join(ROOT, script), args, { env });
      expect(ran.code, `${command}\n${ran.stderr}`).toBe(0);
      expect(ran.stdout).toMatch(/\n\d+ (teams in nba|prices for the events of today)\n$/);
    }
  });
});
