import type { Kysely } from 'kysely';
import { ApiError } from '../../platform/errors.js';
import type { Schema } from '../../platform/db/schema.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import type { KeyResolver } from '../references/index.js';
import { createCompetitionsRepository } from './competitions.repository.js';
import type { CompetitionItem, CompetitionsQuery, ParticipantItem, ParticipantsParams } from './competitions.schemas.js';

/** Competitions (docs/data.md#competitions): their list, a competition's participants, and the items the events lists show. */
export interface CompetitionsService {
  /** The competitions a filter keeps, as a paged list (GET /v1/competitions). */
  list: ListSource<CompetitionFilters, CompetitionItem> & { filters(query: CompetitionsQuery): CompetitionFilters };
  /** A competition's participants with their results, as a paged list (GET /v1/competitions/{event_id}/participants). */
  participants: ListSource<{ eventId: number }, ParticipantItem> & { filters(params: ParticipantsParams): { eventId: number } };
  /** Competition items by event id (ids of matchups are left out). */
  items(ids: readonly number[]): Promise<ReadonlyMap<number, CompetitionItem>>;
}

type IdOrKey = { id: number } | { key: string } | null;

export interface CompetitionFilters {
  sport: IdOrKey;
  league: IdOrKey;
  type: string | null;
  from: number | null;
  to: number | null;
}

const idOrKey = (id: number | undefined, key: string | undefined): IdOrKey => (id !== undefined ? { id } : key !== undefined ? { key: key.toLowerCase() } : null);
const instant = (value: string | undefined): number | null => (value === undefined ? null : Date.parse(value));

export function createCompetitionsService(deps: { db: Kysely<Schema>; keys: KeyResolver }): CompetitionsService {
  const repository = createCompetitionsRepository(deps.db);
  const resolve = (entity: 'sport' | 'league', value: IdOrKey) => deps.keys.scope(entity, value ?? {}, { id: `${entity}_id`, key: `${entity}_key` });

  const list: CompetitionsService['list'] = {
    name: 'competitions',
    filters: (q) => ({ sport: idOrKey(q.sport_id, q.sport_key), league: idOrKey(q.league_id, q.league_key), type: q.type ?? null, from: instant(q.from), to: instant(q.to) }),
    async ids({ sport, league, type, from, to }) {
      return repository.ids({ sportId: await resolve('sport', sport), leagueId: await resolve('league', league), type, from, to });
    },
    items: (ids) => repository.items(ids),
  };

  const participants: CompetitionsService['participants'] = {
    name: 'competition-participants',
    filters: (params) => ({ eventId: params.event_id }),
    async ids({ eventId }) {
      if (!(await repository.exists(eventId))) throw new ApiError('NOT_FOUND', `no competition with event_id ${eventId}`);
      return repository.participantIds(eventId);
    },
    items: (ids) => repository.participants(ids),
  };

  return {
    list,
    participants,
    items: (ids) => repository.items(ids),
  };
}
