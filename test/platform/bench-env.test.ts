import { describe, expect, it } from 'vitest';
import { benchEnv } from '../../bench/local-demo.js';
import { loadConfig } from '../../src/config.js';

/**
 * The benchmarks start their servers with NODE_ENV=production. A variable that production came to
 * require (CHECK_ENDPOINT_KEY) once stopped every benchmark at its first command: their
 * configuration is checked here, where the suite sees it.
 */
describe("the benchmarks' servers", () => {
  it('run a valid production configuration', () => {
    const env = benchEnv('/tmp/sportsdata-bench-env-test');
    expect(env.NODE_ENV).toBe('production');
    expect(() => loadConfig(env)).not.toThrow();
    const { CHECK_ENDPOINT_KEY: _key, ...without } = env;
    expect(() => loadConfig(without)).toThrow(/ENCRYPTION_KEY is required when NODE_ENV=production/);
  });
});
