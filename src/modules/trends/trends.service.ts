import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import type { KeyResolver } from '../references/index.js';
import { createFlowGraph } from './flow-graph.js';
import { createFlowItemLoader } from './flow-items.js';
import { type FlowFilters, normalizeFlowFilters, resolveFlowFilters } from './flow-filters.js';
import { createFlowsById } from './flows-by-id.js';
import { createFlowsBySelection } from './flows-by-selection.js';
import { createFlowTooltip } from './flow-tooltip.js';
import { withAsked, withPrice } from './flow-price.js';
import { inVocabulary } from './flow-vocabulary.js';
import type { FlowVocabulary } from '../auth/index.js';
import { flowIds } from './flows.query.js';
import { leaguesWithFlows } from './leagues-with-flows.js';
import type { FlowItem, FlowsBody, MixedFlowsBody } from './trends.schemas.js';

/**
 * The flows, one list for both endpoints: the same normalized filters give the same flows,
 * so /v1/trends/flows and /v1/trends/mixed-flows share id lists, items and pages. The
 * endpoints differ only in how a body becomes filters (flow_type's default). Beside them: flows
 * by id, the leagues with flows, and a fact flow's hit history.
 */
export function createTrendsService(deps: { database: Database; keys: KeyResolver; clock: Clock }) {
  const { database, keys, clock } = deps;
  const flowItems = createFlowItemLoader(database.db);

  const flows: ListSource<FlowFilters, FlowItem> = {
    name: 'flows',
    /** By id; keys are replaced by ids (404 unknown, 409 ambiguous), then one query. */
    ids: async (filters) => flowIds(database, await resolveFlowFilters(keys, filters)),
    items: (ids) => flowItems(ids, { history: true }),
    /**
     * With odds_format (or product_mode), each flow and leg gains `price` in it; with full_hit_rate
     * its `hit_history`; with include_deeplinks the links (decision 0111: nothing new unasked); for
     * an account answering in Odditt's vocabulary, `flow_type` in Odditt's names.
     */
    view: (item, filters) => inVocabulary(withAsked(withPrice(item, filters.price_format), filters), filters.odditt_names ? 'odditt' : 'ours'),
  };
  const inVocabularyOf = (filters: FlowFilters, vocabulary: FlowVocabulary): FlowFilters => (vocabulary === 'odditt' ? { ...filters, odditt_names: true } : filters);

  return {
    flows,
    /** /v1/trends/flows: flows of one type (default fact), named in the caller's vocabulary. */
    oneTypeFilters: (body: FlowsBody, vocabulary: FlowVocabulary): FlowFilters => inVocabularyOf(normalizeFlowFilters(body, clock.now(), 'fact'), vocabulary),
    /** /v1/trends/mixed-flows: flows of every type; flow_type narrows the mix when given. */
    mixedFilters: (body: MixedFlowsBody, vocabulary: FlowVocabulary): FlowFilters => inVocabularyOf(normalizeFlowFilters(body, clock.now()), vocabulary),
    flowsById: createFlowsById(flowItems),
    flowsBySelection: createFlowsBySelection(database.db, flowItems),
    leaguesWithFlows: leaguesWithFlows(database.db, keys),
    flowGraph: createFlowGraph(database.db),
    flowTooltip: createFlowTooltip(flowItems),
  };
}

export type TrendsService = ReturnType<typeof createTrendsService>;
