import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers/run.js';
import { importLeague, type Server, startServer } from './helpers/server.js';

const PACKAGE = join(ROOT, 'packages/client');

/** What a program that installed the package does with it, printed as one JSON line. */
const CONSUMER_JS = `
import { SportsDataClient, SportsDataError, VERSION } from '@sports-data/client';

const api = new SportsDataClient({ baseUrl: process.env.SPORTS_DATA_URL, apiKey: process.env.SPORTS_DATA_API_KEY });
const teams = [];
for await (const team of api.references.teams.iterate({ league_key: 'nba', page_size: 2 })) teams.push(team.id);
const error = await api.references.teams({ league_key: 'nowhere' }).catch((e) => e);
console.log(JSON.stringify({
  node: process.versions.node,
  version: VERSION,
  teams: teams.length,
  error: { isSportsDataError: error instanceof SportsDataError, status: error.status, code: error.code },
  remaining: api.rateLimit?.remaining,
}));
`;

/** The same from TypeScript: the declarations type it, and refuse what the API refuses. */
const CONSUMER_TS = `
import { SportsDataClient, SportsDataError, type Team, type TeamPage, type TokenStore } from '@sports-data/client';

const store: TokenStore = { get: () => undefined, set: () => {} };
const api = new SportsDataClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sdk_x', tokenStore: store });
export async function use(): Promise<string[]> {
  const page: TeamPage = await api.references.teams({ league_key: 'nba' });
  const first: Team | undefined = page.results[0];
  const names: string[] = first === undefined ? [] : [first.name];
  for await (const odds of api.odds.upcomingByEvent.iterate({ event_id: 1 })) names.push(odds.price_decimal.toFixed(2));
  // @ts-expect-error event_id is required
  await api.odds.upcomingByEvent({});
  // @ts-expect-error no such filter
  await api.references.teams({ league: 'nba' });
  // @ts-expect-error an API key or client credentials, not both
  new SportsDataClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sdk_x', clientId: 'id', clientSecret: 'sds_x' });
  try {
    await api.account.config({ signal: AbortSignal.timeout(1000) });
  } catch (error) {
    if (error instanceof SportsDataError && error.reason === 'client_disabled') names.push(error.request_id ?? '');
  }
  return names;
}
`;

/** Every `node` on the PATH besides this one (the system's, say Node 20), each once. */
function otherNodes(): string[] {
  const seen = new Set([realpathSync(process.execPath)]);
  const found: string[] = [];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      const node = realpathSync(join(dir, 'node'));
      if (!seen.has(node)) found.push(node);
      seen.add(node);
    } catch {
      // No node in this directory.
    }
  }
  return found;
}

/**
 * `npm pack` makes a tarball with no runtime dependency, which installs into a scratch
 * project (offline: there is nothing to fetch) and works there against the real server, on this
 * process's Node.js and on any other found on the PATH; its declarations typecheck a consumer.
 */
describe('the packed package, installed into a scratch project', () => {
  let server: Server;
  let scratch: string;
  let packed: { filename: string; files: Array<{ path: string }> };
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'sdk-scratch-'));
    const output = execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: PACKAGE, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    packed = (JSON.parse(output) as Array<typeof packed>)[0] ?? packed;
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(scratch, packed.filename)], { cwd: scratch, stdio: 'ignore' });
    server = await startServer();
    await importLeague(server, 5);
  }, 120_000);
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await server.close();
  });

  it('holds the built code, its declarations and the README, and depends on nothing', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/types.d.ts']));
    expect(files.filter((f) => !/^(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/.test(f))).toEqual([]);
    const installed = join(scratch, 'node_modules/@sports-data/client');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ type: 'module', engines: { node: '>=20' }, exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } } });
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    // The only packages in the scratch project: this one. Its code imports nothing but its own files.
    expect(readdirSync(join(scratch, 'node_modules'))).toEqual(['.package-lock.json', '@sports-data']);
    const imports = readdirSync(join(installed, 'dist'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .flatMap((f) => [...readFileSync(join(installed, 'dist', f), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1] ?? ''));
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.filter((specifier) => !specifier.startsWith('./') && !specifier.startsWith('../'))).toEqual([]);
  });

  it('works against the real server, on every Node.js at hand', async () => {
    const client = await server.t.client();
    writeFileSync(join(scratch, 'consumer.js'), CONSUMER_JS);
    const versions: string[] = [];
    for (const node of [process.execPath, ...otherNodes()]) {
      const ran = await run(node, ['consumer.js'], { cwd: scratch, env: { SPORTS_DATA_URL: server.baseUrl, SPORTS_DATA_API_KEY: client.apiKey } });
      const major = Number(/^v(\d+)/.exec(execFileSync(node, ['--version'], { encoding: 'utf8' }))?.[1]);
      if (major < 20) continue;
      expect(ran.stderr, node).toBe('');
      const result = JSON.parse(ran.stdout) as { node: string; remaining: number };
      expect(result).toMatchObject({ version: '0.1.0', teams: 5, error: { isSportsDataError: true, status: 404, code: 'NOT_FOUND' } });
      versions.push(result.node);
    }
    expect(versions.length).toBeGreaterThanOrEqual(1);
  });

  it('its declarations type a TypeScript consumer, and refuse wrong calls', () => {
    const file = join(scratch, 'consumer.ts');
    writeFileSync(file, CONSUMER_TS);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
      // The package's own declarations are checked too.
      skipLibCheck: false,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  });
});

/**
 * The README's install commands, run as written from a clone (this repository) into a scratch
 * project: the package is not on the registry, and `npm install @sports-data/client` once was the
 * only way the README gave. Offline, as above: a local tarball has nothing to fetch.
 */
describe('the README’s install commands, as written', () => {
  const project = mkdtempSync(join(tmpdir(), 'sdk-install-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('pack the package into a project, which installs it and calls its methods', async () => {
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
    const install = readme.slice(readme.indexOf('\n## Install\n'), readme.indexOf('\n## Use\n'));
    const [commands = ''] = [...install.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
    expect(commands).toContain('npm install ./sports-data-client-0.1.0.tgz');
    const script = commands.replaceAll('/path/to/the/clone', ROOT).replaceAll('/path/to/your/project', project);
    const ran = await run('bash', ['-c', `set -euo pipefail\n${script}`], {
      cwd: project,
      env: { npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' },
      timeoutMs: 120_000,
    });
    expect(ran.code, `${script}\n${ran.stderr}`).toBe(0);
    expect(readdirSync(project).sort()).toEqual(['node_modules', 'package-lock.json', 'package.json', 'sports-data-client-0.1.0.tgz']);
    writeFileSync(
      join(project, 'methods.js'),
      `import { SportsDataClient } from '@sports-data/client';
const api = new SportsDataClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sdk_x' });
console.log([api.results.clv, api.results.graded.iterate, api.historical.events.pages, api.odds.historyByEvent].map((f) => typeof f).join(' '));`,
    );
    const used = await run(process.execPath, ['methods.js'], { cwd: project });
    expect(used.stderr).toBe('');
    expect(used.stdout).toBe('function function function function\n');
  }, 120_000);
});
