import { pageOf } from '../../platform/pagination.js';
import type { FlowType } from '../../platform/db/schema.js';
import type { FlowVocabulary } from '../auth/index.js';
import { answeredIn, inVocabulary } from './flow-vocabulary.js';
import type { FlowsByIdBody, FlowsByIdPage } from './lookups.schemas.js';
import type { FlowItem } from './trends.schemas.js';

/**
 * POST /v1/trends/flows-by-id: the flows asked for, in the order asked, as one page, and the ids
 * that name none (of `flow_type`, when given). A repeated id is one flow. In Odditt's vocabulary
 * the flows are named in it, and a plain single, which it has no name for, is missing.
 */
export function createFlowsById(
  flowItems: (ids: readonly number[]) => Promise<ReadonlyMap<number, FlowItem>>,
): (body: FlowsByIdBody, vocabulary: FlowVocabulary) => Promise<FlowsByIdPage> {
  return async function flowsById(body: FlowsByIdBody, vocabulary: FlowVocabulary): Promise<FlowsByIdPage> {
    const asked = [...new Set(body.flow_ids)];
    const found = await flowItems(asked);
    const wanted = wantedOf(body.flow_type);
    const results: FlowItem[] = [];
    const missing: number[] = [];
    for (const id of asked) {
      const flow = found.get(id);
      const subType = body.fact_flow_type === undefined || flow?.fact_flow_type === body.fact_flow_type;
      const typed = flow !== undefined && (wanted.type === undefined || flow.flow_type === wanted.type) && (!wanted.parlay || flow.bet_type === 'parlay');
      if (flow !== undefined && subType && typed && answeredIn(vocabulary, flow)) results.push(inVocabulary(flow, vocabulary));
      else missing.push(id);
    }
    return { ...pageOf(results, results.length, { page: 1, page_size: asked.length }), missing_ids: missing };
  };
}

/** Odditt's flow_type values as ours: the type, and whether only parlays are meant. */
function wantedOf(flowType: FlowsByIdBody['flow_type']): { type?: FlowType; parlay: boolean } {
  switch (flowType) {
    case undefined:
      return { parlay: false };
    case 'fact_flow':
      return { type: 'fact', parlay: false };
    case 'fun_flow':
      return { type: 'fun', parlay: false };
    case 'fact_flow_parlay':
      return { type: 'fact', parlay: true };
    case 'fun_flow_parlay':
      return { type: 'fun', parlay: true };
    case 'plain_flow_parlay':
      return { type: 'plain', parlay: true };
    default:
      return { type: flowType, parlay: false };
  }
}
