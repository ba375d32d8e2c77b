import { pageOf } from '../../platform/pagination.js';
import type { FlowVocabulary } from '../auth/index.js';
import { formatAsked, withPrice } from './flow-price.js';
import { inVocabulary } from './flow-vocabulary.js';
import { BY_SELECTION_PAGE_SIZE, type FlowsBySelectionBody } from './lookups.schemas.js';
import type { TrendsRepository } from './repository/index.js';
import type { FlowItem } from './trends.schemas.js';
import type { Page } from '../../platform/pagination.js';

/**
 * POST /v1/trends/by-betting-market-position: the flows on these selections: the singles that bet
 * on one, and the parlays with a leg on one, by id, as the first page of BY_SELECTION_PAGE_SIZE.
 * In Odditt's vocabulary the flows are named in it, and plain singles, which it has no name for,
 * are left out.
 */
export function createFlowsBySelection(
  repository: Pick<TrendsRepository, 'flowIdsOnSelections'>,
  flowItems: (ids: readonly number[]) => Promise<ReadonlyMap<number, FlowItem>>,
): (body: FlowsBySelectionBody, vocabulary: FlowVocabulary) => Promise<Page<FlowItem>> {
  return async function flowsBySelection(body: FlowsBySelectionBody, vocabulary: FlowVocabulary): Promise<Page<FlowItem>> {
    const asked = [...new Set(body.event_betting_market_position_ids)];
    const ids = await repository.flowIdsOnSelections(asked, vocabulary === 'odditt');
    const first = ids.slice(0, BY_SELECTION_PAGE_SIZE);
    const found = await flowItems(first);
    const format = formatAsked(body);
    const results = first.flatMap((id) => {
      const flow = found.get(id);
      return flow === undefined ? [] : [inVocabulary(withPrice(flow, format), vocabulary)];
    });
    return pageOf(results, ids.length, { page: 1, page_size: BY_SELECTION_PAGE_SIZE });
  };
}
