import { pageOf } from '../../platform/pagination.js';
import type { FlowsByIdBody, FlowsByIdPage } from './lookups.schemas.js';
import type { FlowItem } from './trends.schemas.js';

/**
 * POST /v1/trends/flows-by-id: the flows asked for, in the order asked, as one page, and the ids
 * that name none (of `flow_type`, when given). A repeated id is one flow.
 */
export function createFlowsById(flowItems: (ids: readonly number[]) => Promise<ReadonlyMap<number, FlowItem>>) {
  return async function flowsById(body: FlowsByIdBody): Promise<FlowsByIdPage> {
    const asked = [...new Set(body.flow_ids)];
    const found = await flowItems(asked);
    const results: FlowItem[] = [];
    const missing: number[] = [];
    for (const id of asked) {
      const flow = found.get(id);
      if (flow !== undefined && (body.flow_type === undefined || flow.flow_type === body.flow_type)) results.push(flow);
      else missing.push(id);
    }
    return { ...pageOf(results, results.length, { page: 1, page_size: asked.length }), missing_ids: missing };
  };
}
