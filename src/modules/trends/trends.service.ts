import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { Page } from '../../platform/pagination.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import type { KeyResolver } from '../references/index.js';
import { createFlowGraph } from './flow-graph.js';
import { createFlowItemLoader } from './flow-items.js';
import { type FlowFilters, normalizeFlowFilters, resolveFlowFilters } from './flow-filters.js';
import { createFlowsById } from './flows-by-id.js';
import { createFlowsBySelection } from './flows-by-selection.js';
import { createFlowTooltip, type FlowTooltip, type FlowTooltipParams } from './flow-tooltip.js';
import { withAsked, withPrice } from './flow-price.js';
import { inVocabulary } from './flow-vocabulary.js';
import type { FlowVocabulary } from '../auth/index.js';
import { type LeaguesWithFlows, leaguesWithFlows } from './leagues-with-flows.js';
import type { FlowGraphData, FlowsByIdBody, FlowsByIdPage, FlowsBySelectionBody } from './lookups.schemas.js';
import { createTrendsRepository } from './repository/index.js';
import type { FlowItem, FlowsBody, MixedFlowsBody } from './trends.schemas.js';

/** What /v1/trends answers from: the flows as one list, flows by id and by selection, leagues with flows, a fact flow's games, a tooltip. */
export interface TrendsService {
  /** The flows, one list behind /v1/trends/flows and /v1/trends/mixed-flows. */
  flows: ListSource<FlowFilters, FlowItem>;
  /** /v1/trends/flows: flows of one type (default fact), named in the caller's vocabulary. */
  oneTypeFilters(body: FlowsBody, vocabulary: FlowVocabulary): FlowFilters;
  /** /v1/trends/mixed-flows: flows of every type; flow_type narrows the mix when given. */
  mixedFilters(body: MixedFlowsBody, vocabulary: FlowVocabulary): FlowFilters;
  /** The flows asked for by id, in the order asked, and the ids that name none. */
  flowsById(body: FlowsByIdBody, vocabulary: FlowVocabulary): Promise<FlowsByIdPage>;
  /** The singles on these selections and the parlays with a leg on one, as a first page. */
  flowsBySelection(body: FlowsBySelectionBody, vocabulary: FlowVocabulary): Promise<Page<FlowItem>>;
  /** The leagues that have flows, each with its flows counted by type. */
  leaguesWithFlows: LeaguesWithFlows;
  /** The games behind a fact flow's hits / total. */
  flowGraph(flowId: number): Promise<FlowGraphData>;
  /** One fact or fun flow in the few fields a tooltip shows. */
  flowTooltip(params: FlowTooltipParams, vocabulary: FlowVocabulary): Promise<FlowTooltip>;
}

/**
 * The flows, one list for both endpoints: the same normalized filters give the same flows,
 * so /v1/trends/flows and /v1/trends/mixed-flows share id lists, items and pages. The
 * endpoints differ only in how a body becomes filters (flow_type's default). Beside them: flows
 * by id, the leagues with flows, and a fact flow's hit history.
 */
export function createTrendsService(deps: { database: Database; keys: KeyResolver; clock: Clock }): TrendsService {
  const { database, keys, clock } = deps;
  const repository = createTrendsRepository(database);
  const flowItems = createFlowItemLoader(repository);

  const flows: ListSource<FlowFilters, FlowItem> = {
    name: 'flows',
    /** By id; keys are replaced by ids (404 unknown, 409 ambiguous), then one query. */
    ids: async (filters) => repository.flowIds(await resolveFlowFilters(keys, filters)),
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
    oneTypeFilters: (body, vocabulary) => inVocabularyOf(normalizeFlowFilters(body, clock.now(), 'fact'), vocabulary),
    mixedFilters: (body, vocabulary) => inVocabularyOf(normalizeFlowFilters(body, clock.now()), vocabulary),
    flowsById: createFlowsById(flowItems),
    flowsBySelection: createFlowsBySelection(repository, flowItems),
    leaguesWithFlows: leaguesWithFlows(repository, keys),
    flowGraph: createFlowGraph(repository),
    flowTooltip: createFlowTooltip(flowItems),
  };
}
