import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/helpers/longest-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker runs its files one after another in one process, the app's modules imported and
    // compiled once, not once per file: a file's import and warm-up cost as much as a short file's
    // tests. Each file still builds its own apps and databases.
    isolate: false,
    // Two cores: more workers only queue on the same CPUs and the shared PostgreSQL.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
  },
});
