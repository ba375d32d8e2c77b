import { afterAll, beforeAll, expect } from 'vitest';
import type { DialectName } from '../../src/platform/db/database.js';
import { type Reader, reader } from '../helpers/harness.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';
import { flowIds } from './expected.js';

export const MIXED_URL = '/v1/trends/mixed-flows';
export const FLOWS_URL = '/v1/trends/flows';
export const EVERY_FLOW = flowIds();

type Body = Record<string, unknown>;

/**
 * The setup of the flow filter suites, called inside their describe.each(DIALECTS): the fixture
 * behind an app, built before the suite and closed after it, and the requests the tests make.
 */
export function flowFilterSuite(dialect: DialectName) {
  let started: Reader | undefined;
  beforeAll(async () => {
    started = await reader({ dialect: dialect, dataset: eventsFlowsDataset });
  });
  afterAll(async () => started?.t.close());

  const harness = (): Reader => {
    if (started === undefined) throw new Error('the suite has not started');
    return started;
  };
  const mixed = (body: Body) => harness().allIds(MIXED_URL, body, 25);

  return {
    harness,
    post: (url: string, body: Body) => harness().post(url, body),
    mixed,
    facts: (body: Body) => harness().allIds(FLOWS_URL, body, 25),
    /** The filter narrows the list (so the test would fail without it) and gives `expected`. */
    async expectFilter(body: Body, expected: number[]): Promise<void> {
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(EVERY_FLOW.length);
      expect(await mixed(body)).toEqual(expected);
    },
  };
}
