import type { Transaction } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { nameKey } from '../../shared/name-key.js';
import type { IdentityType } from '../../shared/sources.js';
import { Problems } from './import.checks.js';
import { scopesOf, sourceOwned, upsertAliases } from './import-identity.repository.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset, DatasetArray } from './import.schemas.js';

/** The dataset array of each record type a source keeps its key of. */
const ARRAY_OF: Record<IdentityType, DatasetArray> = { sport: 'sports', league: 'leagues', team: 'teams', event: 'events', operator: 'operators' };

/**
 * A native import may not write over a record a source imported (decision 0295): the next file of
 * that source would find its key on a record that no longer says what the source said. 422 naming
 * each such item, its source and key; nothing is written.
 */
export async function refuseSourceOwned(trx: Transaction<Schema>, dataset: Dataset): Promise<void> {
  const problems = new Problems();
  for (const [type, array] of Object.entries(ARRAY_OF)) {
    const items = dataset[array] ?? [];
    if (items.length === 0) continue;
    const owned = new Map((await sourceOwned(trx, type, items.map((item) => item.id))).map((row) => [row.entity_id, row]));
    items.forEach((item, index) => {
      const row = owned.get(item.id);
      if (row === undefined) return;
      problems.add(`${array}[${index}].id`, 'source_owned', `${item.id} is ${row.source}'s ${type} ${JSON.stringify(row.external_id)}: re-import it from its source, or use another id`);
    });
  }
  problems.throwIfAny();
}

/** The dataset's aliases, once its records are written: each must name a record stored now (422 otherwise). */
export async function writeAliases(trx: Transaction<Schema>, repo: ImportRepository, aliases: NonNullable<Dataset['aliases']>, now: number): Promise<void> {
  if (aliases.length === 0) return;
  const idsOf = (type: string) => aliases.filter((a) => a.entity_type === type).map((a) => a.entity_id);
  const teamScopes = await scopesOf(trx, 'teams', idsOf('team'));
  const leagueScopes = await scopesOf(trx, 'leagues', idsOf('league'));
  const sports = new Set((await repo.existing('sports', idsOf('sport'), [])).map((row) => Number(row.id)));
  const operators = new Set((await repo.existing('operators', idsOf('operator'), [])).map((row) => Number(row.id)));
  const scopeOf = (type: string, id: number): number | undefined => {
    if (type === 'team') return teamScopes.get(id);
    if (type === 'league') return leagueScopes.get(id);
    return (type === 'sport' ? sports : operators).has(id) ? 0 : undefined;
  };
  const problems = new Problems();
  const rows = aliases.flatMap((alias, index) => {
    const scope = scopeOf(alias.entity_type, alias.entity_id);
    if (scope === undefined) {
      problems.add(`aliases[${index}].entity_id`, 'reference', `names no ${alias.entity_type} of the dataset or stored`);
      return [];
    }
    return [{ source: alias.source, entity_type: alias.entity_type, name_key: nameKey(alias.name), scope_id: scope, name: alias.name, entity_id: alias.entity_id, created_at: now }];
  });
  problems.throwIfAny();
  await upsertAliases(trx, rows);
}
