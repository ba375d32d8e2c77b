import type { Kysely } from 'kysely';
import { withEventTeams } from '../../platform/db/event-selection.js';
import { whereEventKinds } from '../../platform/db/event-kinds.js';
import type { Schema } from '../../platform/db/schema.js';
import { DEFAULT_EVENT_STATUS, EVENT_STATUSES, type EventStatus } from '../../shared/event-status.js';
import { iso, teamRef } from '../../shared/wire.js';
import type { EventItem } from './events.schemas.js';

/** The events' queries: ids in a time range, and the items the lists show. */
export interface EventsRepository {
  /** Ids of the events in a time range, by start time then id (the events_start_idx order). */
  idsBetween(query: EventsQuery): Promise<number[]>;
  /** Event items by primary key; a competition's id is left out (its item is the competitions'). */
  items(ids: readonly number[]): Promise<Map<number, EventItem>>;
  /** When each event first became final (epoch ms), by id; null when it has not, or did before that was recorded. */
  endedAt(ids: readonly number[]): Promise<Map<number, number | null>>;
}

export interface EventsQuery {
  /** [start, end) in epoch ms. */
  start: number;
  end: number;
  sportId: number | undefined;
  leagueId: number | undefined;
  /** Events the team plays in, home or away. */
  teamId?: number | undefined;
  /** The kinds of events asked for (`event_kinds`). */
  kinds: readonly string[];
}

export function createEventsRepository(db: Kysely<Schema>): EventsRepository {
  return {
    /** Ids of the events in a time range, by start time then id (the events_start_idx order). */
    async idsBetween(query: EventsQuery): Promise<number[]> {
      let select = db
        .selectFrom('events')
        .select('id')
        .where('start_time', '>=', query.start)
        .where('start_time', '<', query.end);
      if (query.sportId !== undefined) select = select.where('sport_id', '=', query.sportId);
      if (query.leagueId !== undefined) select = select.where('league_id', '=', query.leagueId);
      const { teamId } = query;
      if (teamId !== undefined) select = select.where((eb) => eb.or([eb('home_team_id', '=', teamId), eb('away_team_id', '=', teamId)]));
      const rows = await whereEventKinds(select, 'events.kind', query.kinds).orderBy('start_time').orderBy('id').execute();
      return rows.map((r) => Number(r.id));
    },

    async endedAt(ids: readonly number[]): Promise<Map<number, number | null>> {
      const rows = await db.selectFrom('events').select(['id', 'ended_at']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [Number(r.id), r.ended_at === null ? null : Number(r.ended_at)]));
    },

    /** Event items by primary key. */
    async items(ids: readonly number[]): Promise<Map<number, EventItem>> {
      const rows = await db
        .selectFrom('events as e')
        .leftJoin('leagues as l', 'l.id', 'e.league_id')
        .$call(withEventTeams)
        .select(['e.id', 'e.sport_id', 'e.league_id', 'e.status', 'e.home_score', 'e.away_score', 'l.key as league_key'])
        .where('e.id', 'in', ids)
        .where('e.kind', '=', 'matchup')
        .execute();
      const items = new Map<number, EventItem>();
      for (const r of rows) {
        const id = Number(r.id);
        items.set(id, {
          id,
          sport_id: Number(r.sport_id),
          league_id: Number(r.league_id),
          league_key: r.league_key ?? '',
          start_time: iso(Number(r.start_time)),
          status: eventStatusOf(r.status),
          home_team: teamRef(Number(r.home_team_id), r.home_key, r.home_name),
          away_team: teamRef(Number(r.away_team_id), r.away_key, r.away_name),
          home_score: r.home_score === null ? null : Number(r.home_score),
          away_score: r.away_score === null ? null : Number(r.away_score),
        });
      }
      return items;
    },
  };
}

/** A stored status: one of the set since migration 0013 and the import's check; anything else reads as the default. */
function eventStatusOf(value: string): EventStatus {
  return EVENT_STATUSES.find((status) => status === value) ?? DEFAULT_EVENT_STATUS;
}
