import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoCredentialsFile } from '../src/modules/demo/index.js';
import { LIMITS_NEVER_REACHED } from './limits.js';
import { type Running, startApi } from './processes.js';
import type { DemoCredentials } from './run.js';

/**
 * A demo SQLite database in a scratch directory, and API processes on it: what bench/profile.ts
 * and bench/compare.ts load. Builds this checkout first; limits enforced but never reached.
 */
export interface LocalDemo {
  env: Record<string, string>;
  /** Starts `dist/server.js` of `dir` (default: this checkout) with `nodeArgs` on the demo database; resolves once it is ready. */
  start(options?: { dir?: string; nodeArgs?: string[] }): Promise<Running>;
  credentials(): DemoCredentials;
  /** The scratch directory (the database, the demo credentials, a CPU profile). */
  readonly work: string;
  remove(): void;
}

/** The environment of the benchmarks' servers: a production configuration on a scratch SQLite database. */
export function benchEnv(work: string) {
  return {
    DATABASE_URL: `sqlite:${join(work, 'db.sqlite')}`,
    DATA_DIR: work,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    // Production requires it, as it requires JWT_SECRET.
    CHECK_ENDPOINT_KEY: 'be'.repeat(32),
    ACCESS_TOKEN_TTL: '3600',
    LOG_LEVEL: 'warn',
    // A benchmark measures the same slate every round: the demo's prices stay still.
    DEMO_TICKER_PER_SECOND: '0',
    TIER_LIMITS: LIMITS_NEVER_REACHED,
    // Logins in a loop from one address are load, not a brute force.
    LOGIN_FAILURES_PER_MINUTE: '1000000',
    NODE_ENV: 'production',
  };
}

export function localDemo(name: string): LocalDemo {
  const work = mkdtempSync(join(tmpdir(), `sportsdata-${name}-`));
  const env = benchEnv(work);
  execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
  // The matchups alone, as these benchmarks always measured (decision 0331).
  for (const command of [['migrate', '--create'], ['demo-data', '--no-competitions']]) {
    execFileSync(process.execPath, ['bin/sportsdata.js', ...command], { env: { ...process.env, ...env }, stdio: 'ignore' });
  }
  return {
    env,
    work,
    start: (options = {}) => startApi(env, options),
    credentials: () => JSON.parse(readFileSync(demoCredentialsFile(work, env.DATABASE_URL), 'utf8')) as DemoCredentials,
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}
