import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import type { KeyResolver } from '../references/index.js';
import { dayRange, todayIn } from './day-range.js';
import { createEventsRepository } from './events.repository.js';
import type { EventItem, UpcomingEventsBody } from './events.schemas.js';

/** "An id, else a key" for one filter; JSON-serializable, so part of the cache key. */
type IdOrKey = { id: number } | { key: string } | null;

/** A day as UTC instants [start, end): other spellings of one day are one filter. */
export interface EventFilters {
  start: number;
  end: number;
  sport: IdOrKey;
  league: IdOrKey;
}

function idOrKey(id: number | undefined, key: string | undefined): IdOrKey {
  if (id !== undefined) return { id };
  if (key !== undefined) return { key: key.toLowerCase() };
  return null;
}

export function createEventsService(deps: { db: Kysely<Schema>; clock: Clock; keys: KeyResolver }) {
  const { clock, keys } = deps;
  const repository = createEventsRepository(deps.db);

  const resolve = (entity: 'sport' | 'league', value: IdOrKey): Promise<number | undefined> =>
    keys.scope(entity, value ?? {}, { id: `${entity}_id`, key: `${entity}_key` });

  const upcoming: ListSource<EventFilters, EventItem> & { filters(body: UpcomingEventsBody): EventFilters } = {
    name: 'events',

    /** The calendar day read in a time zone (default: today there). */
    filters(body) {
      const timeZone = body.timezone ?? 'UTC';
      const date = body.event_date ?? todayIn(timeZone, clock.now());
      const { start, end } = dayRange(date, timeZone);
      return { start, end, sport: idOrKey(body.sport_id, body.sport_key), league: idOrKey(body.league_id, body.league_key) };
    },

    /** Every event of the day, whatever its status, by start time then id. */
    async ids({ start, end, sport, league }) {
      const sportId = await resolve('sport', sport);
      const leagueId = await resolve('league', league);
      return repository.idsBetween({ start, end, sportId, leagueId });
    },

    items: (ids) => repository.items(ids),
  };

  return { upcoming };
}

export type EventsService = ReturnType<typeof createEventsService>;
