import type { Transaction } from 'kysely';
import { chunksOf } from '../../platform/chunks.js';
import type { AliasesTable, Schema } from '../../platform/db/schema.js';

/** Ids per statement: far below either engine's bind-parameter ceiling. */
const CHUNK = 1_000;

/** The records among `ids` of a type that a source made, each with its source and key there (decision 0295). */
export async function sourceOwned(
  trx: Transaction<Schema>,
  entityType: string,
  ids: readonly number[],
): Promise<Array<{ entity_id: number; source: string; external_id: string }>> {
  const found: Array<{ entity_id: number; source: string; external_id: string }> = [];
  for (const chunk of chunksOf([...new Set(ids)], CHUNK)) {
    const rows = await trx
      .selectFrom('external_ids')
      .select(['entity_id', 'source', 'external_id'])
      .where('entity_type', '=', entityType)
      .where('created', '=', 1)
      .where('entity_id', 'in', [...chunk])
      .orderBy('entity_id')
      .execute();
    for (const row of rows) found.push({ ...row, entity_id: Number(row.entity_id) });
  }
  return found;
}

/** Stores aliases, a name already bound in its scope being bound anew. */
export async function upsertAliases(trx: Transaction<Schema>, rows: readonly AliasesTable[]): Promise<void> {
  for (const chunk of chunksOf(rows, CHUNK)) {
    await trx
      .insertInto('aliases')
      .values([...chunk])
      .onConflict((oc) =>
        oc.columns(['source', 'entity_type', 'name_key', 'scope_id']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          entity_id: eb.ref('excluded.entity_id'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .execute();
  }
}

/** A replace drops every record: the sources' keys of them and the names bound to them go with them. */
export async function deleteIdentities(trx: Transaction<Schema>): Promise<void> {
  await trx.deleteFrom('external_ids').execute();
  await trx.deleteFrom('aliases').execute();
}

/** The scope a record's alias holds in: a team's league, a league's sport (0 when the record is not stored). */
export async function scopesOf(trx: Transaction<Schema>, table: 'teams' | 'leagues', ids: readonly number[]): Promise<Map<number, number>> {
  const scopes = new Map<number, number>();
  for (const chunk of chunksOf([...new Set(ids)], CHUNK)) {
    if (table === 'teams') {
      const rows = await trx.selectFrom('teams').select(['id', 'league_id']).where('id', 'in', [...chunk]).execute();
      for (const row of rows) scopes.set(Number(row.id), Number(row.league_id));
    } else {
      const rows = await trx.selectFrom('leagues').select(['id', 'sport_id']).where('id', 'in', [...chunk]).execute();
      for (const row of rows) scopes.set(Number(row.id), Number(row.sport_id));
    }
  }
  return scopes;
}
