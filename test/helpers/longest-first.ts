import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (the runs of 2026-12-07 and after, on two cores): they start
 * before the rest, so that none of them is left to run alone at the end while the other worker
 * idles. Vitest orders by the durations of its last run when it has them, and by file size
 * without (a fresh clone, CI): a run in a checkout whose record held only some of the files
 * started the longest, a short file, after 28 of its 36 minutes. The files not listed here run
 * in Vitest's order, after these.
 */
const LONGEST = [
  'test/scale-out/first-start.test.ts',
  'test/history/odds-files.test.ts',
  'test/docs/openapi-examples.test.ts',
  'test/demo/first-start-competitions.test.ts',
  'test/docs/documented-commands.test.ts',
  'test/demo/served-plausibility.test.ts',
  'test/demo/demo-data.test.ts',
  'test/docs/docs-page.test.ts',
  'test/usage/durable-counts.test.ts',
  'test/scale-out/shutdown.test.ts',
  'test/odds/moves.properties.test.ts',
  'test/fuzz/fuzz.test.ts',
  'test/stream/big-import.test.ts',
  'test/webhooks/end-to-end-crash-held.test.ts',
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = LONGEST.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return index === -1 ? LONGEST.length : index;
    };
    // Array.prototype.sort is stable: the files not listed keep Vitest's order after the listed ones.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
