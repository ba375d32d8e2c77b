import type { AppContext } from '../../context.js';
import type { Paging } from '../../platform/pagination.js';
import { type CachedPage, createIdLists, itemStore, pageOfIds } from '../../platform/cache/id-pages.js';
import { createFlowItemLoader } from './flow-items.js';
import { type FlowFilters, normalizeFlowFilters, type ResolvedFlowFilters, resolveFlowFilters } from './flow-filters.js';
import { flowIds } from './flows.query.js';
import type { FlowItem, FlowsBody, MixedFlowsBody } from './trends.schemas.js';

/** A canonical text of resolved filters (fixed field order), the id list's cache key. */
function idListKey(f: ResolvedFlowFilters): string {
  return `flows:ids|${JSON.stringify([
    f.sport_ids,
    f.league_ids,
    f.event_ids,
    f.team_ids,
    f.player_ids,
    f.operator_ids,
    f.flow_type,
    f.bet_type,
    f.likelihood,
    f.min_hit_rate,
    f.max_hit_rate,
    f.starts_from,
    f.starts_before,
  ])}`;
}

/** Room for about 80 lists of every flow at the --scale 10 size (200,000 ids each). */
const ID_LIST_BUDGET_BYTES = 128 * 1024 * 1024;

export function createTrendsService(ctx: AppContext) {
  const idLists = createIdLists(ctx.changes, ID_LIST_BUDGET_BYTES);
  const items = itemStore<FlowItem>(ctx.readCache, 'flows', createFlowItemLoader(ctx.database.db));

  function page(filters: FlowFilters, paging: Paging): CachedPage<FlowItem> {
    return {
      // Both endpoints share entries: the same normalized filters give the same flows.
      key: `flows:page|${JSON.stringify(filters)}|${paging.page}|${paging.page_size}`,
      render: async () => {
        const resolved = await resolveFlowFilters(ctx, filters);
        const ids = await idLists.get(idListKey(resolved), () => flowIds(ctx.database, resolved));
        return pageOfIds(ids, paging, items);
      },
    };
  }

  return {
    /** Flows of one type (default fact), by id. */
    flows(body: FlowsBody): CachedPage<FlowItem> {
      const { page: p, page_size, ...request } = body;
      return page(normalizeFlowFilters(request, 'fact'), { page: p, page_size });
    },

    /** Flows of every type, singles and parlays, by id; flow_type narrows the mix when given. */
    mixedFlows(body: MixedFlowsBody): CachedPage<FlowItem> {
      const { page: p, page_size, ...request } = body;
      return page(normalizeFlowFilters(request), { page: p, page_size });
    },
  };
}

export type TrendsService = ReturnType<typeof createTrendsService>;
