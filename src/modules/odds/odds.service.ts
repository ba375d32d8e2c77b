import type { AppContext } from '../../context.js';
import { notFound } from '../../platform/errors.js';
import { createEventsRepository } from '../events/events.repository.js';
import { type CachedPage, createIdLists, itemStore, pageOfIds } from '../../platform/cache/id-pages.js';
import { createOddsRepository } from './odds.repository.js';
import type { OddsByEventBody, OddsItem } from './odds.schemas.js';

/** Sorted, without duplicates; an absent or empty list is no filter. */
export function idSet(ids: readonly number[] | undefined): number[] | undefined {
  if (!ids || ids.length === 0) return undefined;
  return [...new Set(ids)].sort((a, b) => a - b);
}

export function keySet(keys: readonly string[] | undefined): string[] | undefined {
  if (!keys || keys.length === 0) return undefined;
  return [...new Set(keys.map((k) => k.toLowerCase()))].sort();
}

export function createOddsService(ctx: AppContext) {
  const repository = createOddsRepository(ctx.database.db);
  const events = createEventsRepository(ctx.database.db);
  const items = itemStore<OddsItem>(ctx.readCache, 'odds', (ids) => repository.items(ids));
  // An event has tens to hundreds of odds: this holds the lists of every event many times over.
  const idLists = createIdLists(ctx.changes, 32 * 1024 * 1024);

  return {
    /** The odds of one event, by id; operator_ids wins over operator_keys. */
    byEvent(body: OddsByEventBody): CachedPage<OddsItem> {
      const eventId = body.event_id;
      const operatorIds = idSet(body.operator_ids);
      const operatorKeys = operatorIds ? undefined : keySet(body.operator_keys);
      const bettingMarketIds = idSet(body.betting_market_ids);
      const paging = { page: body.page, page_size: body.page_size };
      const filters = { e: eventId, o: operatorIds ?? null, ok: operatorKeys ?? null, m: bettingMarketIds ?? null };
      return {
        key: `odds:page|${JSON.stringify(filters)}|${paging.page}|${paging.page_size}`,
        render: async () => {
          const resolvedOperators =
            operatorIds ?? (operatorKeys ? idSet(await Promise.all(operatorKeys.map((k) => ctx.keys.resolve('operator', k, 'operator_keys')))) : undefined);
          const listKey = `odds:ids|${JSON.stringify([eventId, resolvedOperators ?? null, bettingMarketIds ?? null])}`;
          const ids = await idLists.get(listKey, async () => {
            // Checked inside the once-per-version computation; a 404 is not cached.
            if (!(await events.exists(eventId))) throw notFound(`no event with event_id ${eventId}`);
            return repository.ids({ eventId, operatorIds: resolvedOperators, bettingMarketIds });
          });
          return pageOfIds(ids, paging, items);
        },
      };
    },
  };
}

export type OddsService = ReturnType<typeof createOddsService>;
