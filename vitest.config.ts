import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/helpers/longest-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only queue on the same CPUs and the shared PostgreSQL.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
  },
});
