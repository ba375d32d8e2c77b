import type { AppContext } from '../../context.js';
import { dayRange, todayIn } from './day-range.js';
import { createEventsRepository, type EventsRepository } from './events.repository.js';
import type { EventItem, UpcomingEventsBody } from './events.schemas.js';
import { type CachedPage, createIdLists, itemStore, pageOfIds } from '../../platform/cache/id-pages.js';

/** "An id, else a key" for one filter, in a form that can be part of a cache key. */
type IdOrKey = { id: number } | { key: string } | undefined;

function idOrKey(id: number | undefined, key: string | undefined): IdOrKey {
  if (id !== undefined) return { id };
  if (key !== undefined) return { key: key.toLowerCase() };
  return undefined;
}

export function createEventsService(ctx: AppContext) {
  const repository: EventsRepository = createEventsRepository(ctx.database.db);
  const items = itemStore<EventItem>(ctx.readCache, 'events', (ids) => repository.items(ids));
  // A day's events are a few thousand ids at most; this holds thousands of such lists.
  const idLists = createIdLists(ctx.changes, 16 * 1024 * 1024);

  const resolve = (entity: 'sport' | 'league', value: IdOrKey): Promise<number | undefined> =>
    ctx.keys.scope(entity, value ?? {}, { id: `${entity}_id`, key: `${entity}_key` });

  return {
    /**
     * The events of one calendar day read in a time zone (default: today there), ordered by
     * start time then id. Every event of the day is listed, whatever its status.
     */
    upcoming(body: UpcomingEventsBody): CachedPage<EventItem> {
      const timeZone = body.timezone ?? 'UTC';
      const date = body.event_date ?? todayIn(timeZone, ctx.clock.now());
      const { start, end } = dayRange(date, timeZone);
      const sport = idOrKey(body.sport_id, body.sport_key);
      const league = idOrKey(body.league_id, body.league_key);
      const paging = { page: body.page, page_size: body.page_size };
      return {
        // The day as UTC instants: equivalent requests (same day, other spelling) share entries.
        key: `events:page|${JSON.stringify([start, end, sport ?? null, league ?? null, paging.page, paging.page_size])}`,
        render: async () => {
          const sportId = await resolve('sport', sport);
          const leagueId = await resolve('league', league);
          const ids = await idLists.get(`events:ids|${start}|${end}|${sportId ?? ''}|${leagueId ?? ''}`, () =>
            repository.idsBetween({ start, end, sportId, leagueId }),
          );
          return pageOfIds(ids, paging, items);
        },
      };
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
