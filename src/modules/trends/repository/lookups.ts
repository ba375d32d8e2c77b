import type { Kysely } from 'kysely';
import type { Schema } from '../../../platform/db/schema.js';
import type { FlowCountRow, LeagueRow } from './index.js';

export async function flowIdsOnSelections(db: Kysely<Schema>, selections: readonly number[], withoutPlainSingles: boolean): Promise<number[]> {
  let singles = db.selectFrom('flows').select('id').where('selection_id', 'in', selections);
  if (withoutPlainSingles) singles = singles.where('flow_type', '!=', 'plain');
  const rows = await singles
    .union(db.selectFrom('flow_legs as l').innerJoin('flows as leg', 'leg.id', 'l.leg_id').select('l.flow_id as id').where('leg.selection_id', 'in', selections))
    .orderBy('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

export async function leagueIdsWithFlows(db: Kysely<Schema>, sportId: number | undefined): Promise<number[]> {
  let leagues = db.selectFrom('leagues').select('id').where('id', 'in', db.selectFrom('flows').select('league_id'));
  if (sportId !== undefined) leagues = leagues.where('sport_id', '=', sportId);
  return (await leagues.orderBy('id').execute()).map((row) => Number(row.id));
}

export function leagues(db: Kysely<Schema>, ids: readonly number[]): Promise<LeagueRow[]> {
  return db.selectFrom('leagues').selectAll().where('id', 'in', ids).execute();
}

export function flowCounts(db: Kysely<Schema>, leagueIds: readonly number[]): Promise<FlowCountRow[]> {
  return db
    .selectFrom('flows')
    .select(['league_id', 'flow_type', (eb) => eb.fn.countAll<number | string>().as('flows')])
    .where('league_id', 'in', leagueIds)
    .groupBy(['league_id', 'flow_type'])
    .execute();
}
