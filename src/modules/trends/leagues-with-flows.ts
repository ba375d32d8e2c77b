import type { FlowType } from '../../platform/db/schema.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import { type KeyResolver, leagueQualifiedKey } from '../references/index.js';
import type { LeagueWithFlowsItem } from './lookups.schemas.js';
import type { TrendsRepository } from './repository/index.js';

/** The sport, by id or key (the id wins, and the key is then not resolved). */
export type LeaguesWithFlowsFilters = readonly [sportId: number | null, sportKey: string | null];

/** The leagues with flows as a list, and how a query becomes its filters. */
export interface LeaguesWithFlows extends ListSource<LeaguesWithFlowsFilters, LeagueWithFlowsItem> {
  filters(query: { sport_id?: number; sport_key?: string }): LeaguesWithFlowsFilters;
}

/**
 * GET /v1/trends/leagues-with-available-flows: the leagues that have at least one flow, by id,
 * each with its flows counted by type.
 */
export function leaguesWithFlows(repository: Pick<TrendsRepository, 'leagueIdsWithFlows' | 'leagues' | 'flowCounts'>, keys: KeyResolver): LeaguesWithFlows {
  return {
    name: 'leagues-with-flows',

    filters: (q) => [q.sport_id ?? null, q.sport_id === undefined && q.sport_key !== undefined ? q.sport_key.toLowerCase() : null],

    async ids([sportId, sportKey]) {
      const sport = await keys.scope('sport', { id: sportId, key: sportKey }, { id: 'sport_id', key: 'sport_key' });
      return repository.leagueIdsWithFlows(sport);
    },

    async items(ids) {
      if (ids.length === 0) return new Map();
      const leagues = await repository.leagues(ids);
      const counts = await repository.flowCounts(ids);
      const countOf = new Map(counts.map((c) => [`${Number(c.league_id)} ${c.flow_type}`, Number(c.flows)]));
      return new Map(
        leagues.map((league) => {
          const flowsOf = (type: FlowType) => countOf.get(`${league.id} ${type}`) ?? 0;
          const [fact, fun, plain] = [flowsOf('fact'), flowsOf('fun'), flowsOf('plain')];
          const item: LeagueWithFlowsItem = {
            id: Number(league.id),
            key: league.key,
            qualified_key: leagueQualifiedKey(league.key, league.country_key),
            name: league.name,
            sport_id: Number(league.sport_id),
            country: league.country_key ? { key: league.country_key, name: league.country_name ?? league.country_key } : null,
            is_popular: Number(league.is_popular) === 1,
            flow_counts: { fact, fun, plain, total: fact + fun + plain },
          };
          return [item.id, item];
        }),
      );
    },
  };
}
