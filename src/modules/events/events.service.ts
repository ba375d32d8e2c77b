import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import type { KeyResolver } from '../references/index.js';
import { dayRange, todayIn } from './day-range.js';
import { createEventsRepository } from './events.repository.js';
import type { EventOrCompetition, HistoricalCompetitionItem, HistoricalEventItem, HistoricalEventsQuery, UpcomingEventsBody } from './events.schemas.js';
import { utcDays } from '../../shared/date-range.js';
import { MINUTE_MS } from '../../platform/time.js';
import { iso } from '../../shared/wire.js';
import { DEFAULT_EVENT_KINDS, eventKindsOf, includesCompetitions } from '../../shared/event-kinds.js';
import type { EventKind } from '../../platform/db/schema.js';
import type { CompetitionsService } from '../competitions/index.js';

/** Events: the events of one day in a time zone, and those that have started. */
export interface EventsService {
  /** Every event of a calendar day in a time zone, as a paged list (POST /v1/events/upcoming-events). */
  upcoming: ListSource<EventFilters, EventOrCompetition> & { filters(body: UpcomingEventsBody): EventFilters };
  /** Every event that has started in a range of days, with its price-history files, as a paged list (GET /v1/historical/events). */
  historical: ListSource<HistoricalFilters, HistoricalEventItem | HistoricalCompetitionItem> & { filters(query: HistoricalEventsQuery): HistoricalFilters };
  /** One event as the lists show it, of the kinds asked (default matchups); undefined when there is none. */
  item(id: number, kinds?: readonly EventKind[]): Promise<EventOrCompetition | undefined>;
}

/** "An id, else a key" for one filter; JSON-serializable, so part of the cache key. */
type IdOrKey = { id: number } | { key: string } | null;

/** A day as UTC instants [start, end): other spellings of one day are one filter. */
export interface EventFilters {
  start: number;
  end: number;
  sport: IdOrKey;
  league: IdOrKey;
  /** The kinds of events asked for (`event_kinds`, default matchups). */
  kinds: EventKind[];
}

function idOrKey(id: number | undefined, key: string | undefined): IdOrKey {
  if (id !== undefined) return { id };
  if (key !== undefined) return { key: key.toLowerCase() };
  return null;
}

export function createEventsService(deps: { db: Kysely<Schema>; clock: Clock; keys: KeyResolver; competitions: Pick<CompetitionsService, 'items'> }): EventsService {
  const { clock, keys } = deps;
  const repository = createEventsRepository(deps.db);

  /** The items of a page: matchups as they always were, and competitions (asked for with `event_kinds`) in their own shape. */
  async function itemsOf(ids: readonly number[], kinds: readonly EventKind[]): Promise<Map<number, EventOrCompetition>> {
    const items: Map<number, EventOrCompetition> = await repository.items(ids);
    if (!includesCompetitions(kinds)) return items;
    const rest = ids.filter((id) => !items.has(id));
    if (rest.length > 0) for (const [id, item] of await deps.competitions.items(rest)) items.set(id, item);
    return items;
  }

  const resolve = (entity: 'sport' | 'league', value: IdOrKey): Promise<number | undefined> =>
    keys.scope(entity, value ?? {}, { id: `${entity}_id`, key: `${entity}_key` });

  const upcoming: EventsService['upcoming'] = {
    name: 'events',

    /** The calendar day read in a time zone (default: today there). */
    filters(body) {
      const timeZone = body.timezone ?? 'UTC';
      const date = body.event_date ?? todayIn(timeZone, clock.now());
      const { start, end } = dayRange(date, timeZone);
      return { start, end, sport: idOrKey(body.sport_id, body.sport_key), league: idOrKey(body.league_id, body.league_key), kinds: eventKindsOf(body.event_kinds) };
    },

    /** Every event of the day, whatever its status, by start time then id. */
    async ids({ start, end, sport, league, kinds }) {
      const sportId = await resolve('sport', sport);
      const leagueId = await resolve('league', league);
      return repository.idsBetween({ start, end, sportId, leagueId, kinds });
    },

    items: (ids, { kinds }) => itemsOf(ids, kinds),
  };

  const historical: EventsService['historical'] = {
    name: 'historical-events',

    /**
     * The days asked for, cut at the current minute: an event is historical once it has started.
     * Whole minutes, so that one filter keeps one cache entry for a minute rather than a request.
     */
    filters(query) {
      const now = clock.now();
      const { start, end } = utcDays(query, now);
      const started = Math.floor(now / MINUTE_MS) * MINUTE_MS + 1;
      return {
        start,
        end: Math.min(end, started),
        sport: query.sport_id ?? null,
        league: query.league_id ?? null,
        team: query.team_id ?? null,
        kinds: eventKindsOf(query.event_kinds),
      };
    },

    /** Every event that has started in the range, whatever its status, by start time then id. */
    async ids({ start, end, sport, league, team, kinds }) {
      const sportId = sport === null ? undefined : await keys.requireId('sport', sport, 'sport_id');
      const leagueId = league === null ? undefined : await keys.requireId('league', league, 'league_id');
      const teamId = team === null ? undefined : await keys.requireId('team', team, 'team_id');
      // A team plays in matchups: competitions are kept to their participants' list.
      return end <= start ? [] : repository.idsBetween({ start, end, sportId, leagueId, teamId, kinds: teamId === undefined ? kinds : ['matchup'] });
    },

    async items(ids, { kinds }) {
      const [events, ends] = await Promise.all([itemsOf(ids, kinds), repository.endedAt(ids)]);
      return new Map([...events].map(([id, event]) => [id, { ...event, ended_at: endOf(ends.get(id)), ...historyFilesOf(id) }]));
    },
  };

  /** One event as the lists show it; undefined when there is none. */
  const item = async (id: number, kinds: readonly EventKind[] = DEFAULT_EVENT_KINDS): Promise<EventOrCompetition | undefined> => (await itemsOf([id], kinds)).get(id);

  return { upcoming, historical, item };
}

/**
 * Where an event's price-history files are (the history module serves them), relative to the
 * API's base URL: a client behind a proxy or on another host joins them to the URL it calls.
 */
function historyFilesOf(eventId: number): Pick<HistoricalEventItem, 'json_url' | 'csv_url'> {
  return { json_url: `/v1/historical/odds/${eventId}.json`, csv_url: `/v1/historical/odds/${eventId}.csv` };
}

/** UTC instants [start, end): the days asked for, up to the current minute. */
export interface HistoricalFilters {
  start: number;
  end: number;
  sport: number | null;
  league: number | null;
  team: number | null;
  kinds: EventKind[];
}

/** An event's end as the wire says it. */
function endOf(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : iso(ms);
}
