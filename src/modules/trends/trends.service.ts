import type { Database } from '../../platform/db/database.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import type { KeyResolver } from '../references/index.js';
import { createFlowItemLoader } from './flow-items.js';
import { type FlowFilters, normalizeFlowFilters, resolveFlowFilters } from './flow-filters.js';
import { flowIds } from './flows.query.js';
import type { FlowItem, FlowsBody, MixedFlowsBody } from './trends.schemas.js';

/**
 * The flows, one list for both endpoints: the same normalized filters give the same flows,
 * so /v1/trends/flows and /v1/trends/mixed-flows share id lists, items and pages. The
 * endpoints differ only in how a body becomes filters (flow_type's default).
 */
export function createTrendsService(deps: { database: Database; keys: KeyResolver }) {
  const { database, keys } = deps;

  const flows: ListSource<FlowFilters, FlowItem> = {
    name: 'flows',
    /** By id; keys are replaced by ids (404 unknown, 409 ambiguous), then one query. */
    ids: async (filters) => flowIds(database, await resolveFlowFilters(keys, filters)),
    items: createFlowItemLoader(database.db),
  };

  return {
    flows,
    /** /v1/trends/flows: flows of one type (default fact). */
    oneTypeFilters: (body: FlowsBody): FlowFilters => normalizeFlowFilters(body, 'fact'),
    /** /v1/trends/mixed-flows: flows of every type; flow_type narrows the mix when given. */
    mixedFilters: (body: MixedFlowsBody): FlowFilters => normalizeFlowFilters(body),
  };
}

export type TrendsService = ReturnType<typeof createTrendsService>;
