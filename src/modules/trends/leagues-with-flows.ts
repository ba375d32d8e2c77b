import type { Kysely } from 'kysely';
import type { FlowType, Schema } from '../../platform/db/schema.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import { type KeyResolver, leagueQualifiedKey } from '../references/index.js';
import type { LeagueWithFlowsItem } from './lookups.schemas.js';

/** The sport, by id or key (the id wins, and the key is then not resolved). */
export type LeaguesWithFlowsFilters = readonly [sportId: number | null, sportKey: string | null];

/**
 * GET /v1/trends/leagues-with-available-flows: the leagues that have at least one flow, by id,
 * each with its flows counted by type.
 */
export function leaguesWithFlows(db: Kysely<Schema>, keys: KeyResolver): ListSource<LeaguesWithFlowsFilters, LeagueWithFlowsItem> & {
  filters(query: { sport_id?: number; sport_key?: string }): LeaguesWithFlowsFilters;
} {
  return {
    name: 'leagues-with-flows',

    filters: (q) => [q.sport_id ?? null, q.sport_id === undefined && q.sport_key !== undefined ? q.sport_key.toLowerCase() : null],

    async ids([sportId, sportKey]) {
      const sport = await keys.scope('sport', { id: sportId, key: sportKey }, { id: 'sport_id', key: 'sport_key' });
      let leagues = db.selectFrom('leagues').select('id').where('id', 'in', db.selectFrom('flows').select('league_id'));
      if (sport !== undefined) leagues = leagues.where('sport_id', '=', sport);
      return (await leagues.orderBy('id').execute()).map((row) => Number(row.id));
    },

    async items(ids) {
      if (ids.length === 0) return new Map();
      const leagues = await db.selectFrom('leagues').selectAll().where('id', 'in', ids).execute();
      const counts = await db
        .selectFrom('flows')
        .select(['league_id', 'flow_type', (eb) => eb.fn.countAll<number | string>().as('flows')])
        .where('league_id', 'in', ids)
        .groupBy(['league_id', 'flow_type'])
        .execute();
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
