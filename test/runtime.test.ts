import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SUPPORTED_MAJORS = [22, 24, 26];

/** The `node` that npm scripts and npx find first on the PATH (node_modules/.bin/node on Node 20 machines). */
const pathNodeVersion = execFileSync('node', ['-p', 'process.version'], { cwd: ROOT, encoding: 'utf8' }).trim();

function major(version: string): number {
  return Number(version.replace(/^v/, '').split('.')[0]);
}

describe('runtime', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-runtime-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the suite itself runs on a supported Node line (22, 24 or 26), never the end-of-life 20', () => {
    expect(SUPPORTED_MAJORS).toContain(major(process.version));
  });

  it('the node on the PATH of npm scripts and npx is a supported line', () => {
    expect(SUPPORTED_MAJORS).toContain(major(pathNodeVersion));
  });

  it('this node takes the flags `npm start` and `npm run serve` give the server (decisions 0150, 0152)', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const flagsOf = (script: string | undefined) => (script ?? '').split(' ').filter((word) => word.startsWith('--'));
    expect(flagsOf(scripts.start)).toEqual(['--no-allocation-site-pretenuring', '--no-maglev']);
    expect(flagsOf(scripts.serve)).toEqual(flagsOf(scripts.start));
    // A flag V8 does not know stops node before it runs anything ("bad option").
    const out = execFileSync(process.execPath, [...flagsOf(scripts.start), '-p', '"runs"'], { encoding: 'utf8' });
    expect(out.trim()).toBe('runs');
    expect(() => execFileSync(process.execPath, ['--no-such-v8-flag-at-all', '-p', '1'], { stdio: 'ignore' })).toThrow();
  });

  it('`npx sportsdata --version` runs on that node and names it', () => {
    const out = execFileSync('npx', ['--no-install', 'sportsdata', '--version'], { cwd: ROOT, encoding: 'utf8' });
    expect(out.trim()).toMatch(new RegExp(`\\(Node ${pathNodeVersion.replaceAll('.', '\\.')}\\)$`));
  });

  it("the real server's start-up log line names process.version of the node it runs on", async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      DATABASE_URL: 'sqlite::memory:',
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      JWT_SECRET: 'runtime-test-secret-that-is-at-least-32-bytes',
      NODE_ENV: 'development',
    };
    delete env.NODE_OPTIONS;
    const child = spawn('node', ['--import', 'tsx', 'src/server.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const line = await new Promise<Record<string, unknown>>((resolve, reject) => {
      let buffered = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        for (const text of buffered.split('\n')) {
          if (!text.startsWith('{')) continue;
          const entry = JSON.parse(text) as Record<string, unknown>;
          if (entry.msg === 'serving') resolve(entry);
        }
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${String(code)} before serving`)));
    });
    child.kill('SIGTERM');
    expect(line.node_version).toBe(pathNodeVersion);
    expect(SUPPORTED_MAJORS).toContain(major(String(line.node_version)));
    expect(String(line.url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
