import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { COMPETITION_TYPES, PARTICIPANT_TYPES } from '../../platform/db/schema.js';
import { FINISH_STATUSES } from '../../shared/settlement/outrights.js';
import { DEFAULT_EVENT_STATUS, EVENT_STATUSES } from '../../shared/event-status.js';
import { iso } from '../../shared/wire.js';
import type { CompetitionItem, ParticipantItem } from './competitions.schemas.js';

/** The competitions' queries: ids by filter, the items, and a competition's participants. */
export interface CompetitionsRepository {
  /** Ids of the competitions a filter keeps, by start time then id. */
  ids(query: CompetitionsQueryFilter): Promise<number[]>;
  /** Competition items by event id. */
  items(ids: readonly number[]): Promise<Map<number, CompetitionItem>>;
  /** Whether a competition with this event id exists. */
  exists(eventId: number): Promise<boolean>;
  /** The ids of a competition's participants, in id order. */
  participantIds(eventId: number): Promise<number[]>;
  /** Participant items by id, each with its result and whether it is tied. */
  participants(ids: readonly number[]): Promise<Map<number, ParticipantItem>>;
}

export interface CompetitionsQueryFilter {
  sportId: number | undefined;
  leagueId: number | undefined;
  type: string | null;
  /** Epoch ms: competitions ending at or after it; null: any. */
  from: number | null;
  /** Epoch ms: competitions starting before it; null: any. */
  to: number | null;
}

const pick = <T extends string>(values: readonly T[], value: string, fallback: T): T => values.find((v) => v === value) ?? fallback;

export function createCompetitionsRepository(db: Kysely<Schema>): CompetitionsRepository {
  return {
    async ids(query) {
      let select = db.selectFrom('events as e').innerJoin('competitions as c', 'c.id', 'e.id').select('e.id').where('e.kind', '=', 'competition');
      if (query.sportId !== undefined) select = select.where('e.sport_id', '=', query.sportId);
      if (query.leagueId !== undefined) select = select.where('e.league_id', '=', query.leagueId);
      if (query.type !== null) select = select.where('c.type', '=', query.type);
      if (query.from !== null) select = select.where('c.end_time', '>=', query.from);
      if (query.to !== null) select = select.where('e.start_time', '<', query.to);
      const rows = await select.orderBy('e.start_time').orderBy('e.id').execute();
      return rows.map((r) => Number(r.id));
    },

    async items(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('events as e')
        .innerJoin('competitions as c', 'c.id', 'e.id')
        .leftJoin('leagues as l', 'l.id', 'e.league_id')
        .select(['e.id', 'e.sport_id', 'e.league_id', 'e.start_time', 'e.status', 'c.name', 'c.type', 'c.participant_type', 'c.end_time', 'l.key as league_key'])
        .select((eb) => eb.selectFrom('competition_participants as p').select(eb.fn.countAll<number>().as('n')).whereRef('p.event_id', '=', 'e.id').as('participants'))
        .where('e.id', 'in', ids)
        .execute();
      return new Map(
        rows.map((r) => [
          Number(r.id),
          {
            id: Number(r.id),
            kind: 'competition' as const,
            sport_id: Number(r.sport_id),
            league_id: Number(r.league_id),
            league_key: r.league_key ?? '',
            name: r.name,
            type: pick(COMPETITION_TYPES, r.type, 'tournament'),
            participant_type: pick(PARTICIPANT_TYPES, r.participant_type, 'player'),
            start_time: iso(Number(r.start_time)),
            end_time: iso(Number(r.end_time)),
            status: pick(EVENT_STATUSES, r.status, DEFAULT_EVENT_STATUS),
            participants: Number(r.participants ?? 0),
          },
        ]),
      );
    },

    async exists(eventId) {
      return (await db.selectFrom('events').select('id').where('id', '=', eventId).where('kind', '=', 'competition').executeTakeFirst()) !== undefined;
    },

    async participantIds(eventId) {
      const rows = await db.selectFrom('competition_participants').select('id').where('event_id', '=', eventId).orderBy('id').execute();
      return rows.map((r) => Number(r.id));
    },

    async participants(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('competition_participants as p')
        .leftJoin('teams as t', 't.id', 'p.team_id')
        .leftJoin('players as pl', 'pl.id', 'p.player_id')
        .select(['p.id', 'p.event_id', 'p.name', 'p.team_id', 'p.player_id', 'p.finish_position', 'p.finish_status', 't.key as team_key', 't.name as team_name', 'pl.key as player_key', 'pl.name as player_name'])
        .where('p.id', 'in', ids)
        .execute();
      const tiedAt = await positionsShared(db, [...new Set(rows.map((r) => Number(r.event_id)))]);
      return new Map(
        rows.map((r) => {
          const position = r.finish_position === null ? null : Number(r.finish_position);
          const status = FINISH_STATUSES.find((s) => s === r.finish_status);
          const item: ParticipantItem = {
            id: Number(r.id),
            name: r.name,
            team: r.team_id === null ? null : { id: Number(r.team_id), key: r.team_key ?? '', name: r.team_name ?? '' },
            player: r.player_id === null ? null : { id: Number(r.player_id), key: r.player_key ?? '', name: r.player_name ?? '' },
            result: status === undefined ? null : { status, position, tied: position !== null && tiedAt.has(`${Number(r.event_id)}:${position}`) },
          };
          return [item.id, item];
        }),
      );
    },
  };
}

/** The finishing positions two or more participants share, as `event:position`. */
async function positionsShared(db: Kysely<Schema>, eventIds: readonly number[]): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('competition_participants')
    .select(['event_id', 'finish_position', (eb) => eb.fn.countAll<number>().as('n')])
    .where('event_id', 'in', eventIds)
    .where('finish_status', '=', 'finished')
    .groupBy(['event_id', 'finish_position'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  return new Set(rows.map((r) => `${Number(r.event_id)}:${Number(r.finish_position)}`));
}
