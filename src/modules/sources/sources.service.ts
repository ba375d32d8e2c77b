import { type ImportService, Problems, type QueueReleased, type ReleaseAliased, upsertAliases, type WithinImport } from '../import/index.js';
import type { Transaction } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { AliasesTable, ExternalIdsTable, Schema } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { nameKey, similarity } from '../../shared/name-key.js';
import type { AliasType, SourceName } from '../../shared/sources.js';
import type { RowProblem, SourceBatch, SourceImporter, SourceImportOptions, SourceImportResult, SourceRow } from './source-batch.js';
import { refuseNul } from './source-nul.js';
import { createSourcesRepository } from './sources.repository.js';
import { createResolver, type Forced, forcedKey, type Unmatched } from './sources.resolver.js';
import { buildDatasets } from './sources.writer.js';

export interface AliasInput {
  source: SourceName;
  name: string;
  entity_type: AliasType;
  entity_id?: number;
  create?: boolean;
}

/** A name the review queue waits on, with the records it may stand for. */
export interface UnmatchedName extends Unmatched {
  source: SourceName;
  rows: number;
  candidates: Array<{ entity_id: number; name: string; score: number }>;
}

const TABLE_OF: Record<AliasType, 'sports' | 'leagues' | 'teams' | 'operators'> = { sport: 'sports', league: 'leagues', team: 'teams', operator: 'operators' };

/** The candidates the queue offers per name, best first. */
const MAX_CANDIDATES = 5;

/** What an alias posted did: the record the name stands for, and the waiting rows it let in. */
export interface AliasPosted {
  entity_id: number | null;
  imported: SourceImportResult['imported'];
  /** Rows of the source still waiting. */
  queued: number;
}

/** The source importer and the mapping it keeps: what the routes, the CLI and the upstream feed call. */
export interface SourcesService extends SourceImporter {
  /** Binds a name to a record (or makes one for it), then imports the rows that waited for it, in one transaction. */
  postAlias(input: AliasInput): Promise<AliasPosted>;
  /** The stored aliases, of a source and a record type (either or both). */
  listAliases(filter: { source?: string; entityType?: string }): Promise<AliasesTable[]>;
  /** The sources' keys of our records that match every given field. */
  externalIds(filter: { source?: string; entityType?: string; externalId?: string; entityId?: number }): Promise<ExternalIdsTable[]>;
  /** Every name the queue waits on, with its rows and its best candidates. */
  unmatched(source?: SourceName): Promise<UnmatchedName[]>;
}

/** The source importer (decisions 0295–0297): resolution, review queue and aliases, all through the bulk import's transaction. */
export function createSourcesService(deps: { database: Database; importer: ImportService }): SourcesService {
  const { database, importer } = deps;

  /** Resolves and writes rows in one import transaction; the unmatched ones wait in the queue, the refused ones refuse it unless skipped. */
  async function run(source: SourceName, rows: readonly SourceRow[], forced: Forced, skipInvalid: boolean) {
    return importer.importWithin((within) => resolveWithin(within, source, rows, forced, skipInvalid));
  }

  /** The source's queue imported again, read in the transaction after `before` (an alias bound) ran in it. */
  async function replayQueue(source: SourceName, forced: Forced, before?: (trx: Transaction<Schema>, now: number) => Promise<void>) {
    return importer.importWithin(async (within) => {
      if (before) await before(within.trx, within.now);
      return resolveWithin(within, source, await queuedRows(within.trx, source), forced);
    });
  }

  const importer_: SourceImporter = {
    async importBatch(read: SourceBatch, options: SourceImportOptions = {}): Promise<SourceImportResult> {
      const batch = refuseNul(read);
      const skipInvalid = options.skipInvalid === true;
      if (!skipInvalid) refuseProblems(batch.problems);
      const refused = new Set(batch.problems.map((p) => p.row));
      const rows = batch.rows.filter((r) => !refused.has(r.row));
      const { value } = await run(batch.source, rows, new Set(), skipInvalid);
      return { imported: value.counts, queued: value.queued, skipped: [...batch.problems, ...value.refused].sort((a, b) => a.row - b.row) };
    },
  };

  return {
    ...importer_,

    /** Binds a name to a record (or makes one for it), then imports the rows that waited for it, in one transaction. */
    async postAlias(input: AliasInput) {
      const repo = createSourcesRepository(database.db);
      const key = nameKey(input.name);
      if (input.create === true) {
        const waiting = unmatchedOf(await repo.queue(input.source)).filter((u) => u.entity_type === input.entity_type && nameKey(u.name) === key);
        if (waiting.length === 0) throw new ApiError('NOT_FOUND', `no waiting row of ${input.source} names the ${input.entity_type} ${JSON.stringify(input.name)}`);
        const forced = new Set(waiting.map((u) => forcedKey(u.entity_type, u.scope_id, u.name)));
        const { value } = await replayQueue(input.source, forced);
        const made = (await repo.externalIds(input.source, input.entity_type)).get(waiting[0]?.name ?? input.name);
        return { entity_id: made ?? null, imported: value.counts, queued: value.queued };
      }
      if (input.entity_id === undefined) throw new ApiError('VALIDATION_ERROR', 'give entity_id, or create: true', { details: [{ field: 'entity_id', rule: 'required' }] });
      const entityId = input.entity_id;
      const found = await repo.exists(TABLE_OF[input.entity_type], entityId);
      if (found === undefined) throw new ApiError('VALIDATION_ERROR', `entity_id ${entityId} names no stored ${input.entity_type}`, { details: [{ field: 'entity_id', rule: 'reference' }] });
      const { value } = await replayQueue(input.source, new Set(), async (trx, now) => {
        await upsertAliases(trx, [{ source: input.source, entity_type: input.entity_type, name_key: key, scope_id: found.scope, name: input.name, entity_id: entityId, created_at: now }]);
      });
      return { entity_id: entityId, imported: value.counts, queued: value.queued };
    },

    listAliases: (filter: { source?: string; entityType?: string }) => createSourcesRepository(database.db).listAliases(filter),

    externalIds: (filter: { source?: string; entityType?: string; externalId?: string; entityId?: number }) => createSourcesRepository(database.db).findExternalIds(filter),

    /** Every name the queue waits on, with its rows and its best candidates. */
    async unmatched(source?: SourceName): Promise<UnmatchedName[]> {
      const repo = createSourcesRepository(database.db);
      const names = unmatchedOf(await repo.queue(source));
      const answer: UnmatchedName[] = [];
      for (const u of names) {
        const records = u.entity_type === 'team' ? await repo.teamsOf(u.scope_id) : await repo.leaguesOf(u.scope_id);
        const candidates = records
          .map((r) => ({ entity_id: r.id, name: r.name, score: similarity(u.name, r.name) }))
          .sort((a, b) => b.score - a.score || a.entity_id - b.entity_id)
          .slice(0, MAX_CANDIDATES);
        answer.push({ ...u, candidates });
      }
      return answer;
    },
  };
}

/**
 * Resolves and writes rows in the import's transaction `within`; the unmatched ones wait in the
 * queue. A row a name refuses refuses the whole batch, before anything is written, unless
 * `skipRefused` (a batch with skip_invalid; the queue replayed, whose refused rows keep waiting).
 */
async function resolveWithin(within: WithinImport, source: SourceName, rows: readonly SourceRow[], forced: Forced, skipRefused = true) {
  const repo = createSourcesRepository(within.trx);
  const resolver = createResolver(repo, source, within.now, forced);
  const built = await buildDatasets(repo, resolver, rows);
  if (!skipRefused) refuseProblems(built.refused);
  for (const dataset of built.datasets) await within.write(dataset);
  await repo.insertExternalIds(resolver.links);
  await repo.dequeue(source, built.imported.map((r) => r.eventKey));
  await repo.enqueue(built.waiting.map((w) => ({ source, event_key: w.row.eventKey, row: JSON.stringify(w.row), unmatched: JSON.stringify(w.unmatched), queued_at: within.now })));
  return { counts: built.counts, queued: built.waiting.length, refused: built.refused, resolver };
}

const queuedRows = async (trx: Transaction<Schema>, source: SourceName): Promise<SourceRow[]> => (await createSourcesRepository(trx).queue(source)).map((q) => JSON.parse(q.row) as SourceRow);

/**
 * A native dataset's aliases bind names as POST /admin/v1/mapping/aliases does, so the rows that
 * waited on them are imported as that route imports them: each aliased source's queue again, in
 * the dataset's transaction. Undefined when no row of those sources waited.
 */
export const releaseAliased: ReleaseAliased = async (within, aliases) => {
  let released: QueueReleased | undefined;
  for (const source of new Set(aliases.map((a) => a.source))) {
    const rows = await queuedRows(within.trx, source);
    if (rows.length === 0) continue;
    const { counts, queued } = await resolveWithin(within, source, rows, new Set());
    const sum = released ?? { imported: { events: 0, odds: 0, results: 0 }, queued: 0 };
    released = { imported: { events: sum.imported.events + counts.events, odds: sum.imported.odds + counts.odds, results: sum.imported.results + counts.results }, queued: sum.queued + queued };
  }
  return released;
};

/** The queue's names, one per source, type, scope and normalised name, each with the rows waiting on it. */
function unmatchedOf(queue: ReadonlyArray<{ source: string; unmatched: string }>): Array<Unmatched & { source: SourceName; rows: number }> {
  const byName = new Map<string, Unmatched & { source: SourceName; rows: number }>();
  for (const entry of queue) {
    for (const u of JSON.parse(entry.unmatched) as Unmatched[]) {
      const key = `${entry.source}/${forcedKey(u.entity_type, u.scope_id, u.name)}`;
      const known = byName.get(key);
      if (known) known.rows += 1;
      else byName.set(key, { ...u, source: entry.source as SourceName, rows: 1 });
    }
  }
  return [...byName.values()];
}

/** 422 naming every problem of the batch by row and column; nothing is written. */
function refuseProblems(rows: readonly RowProblem[]): void {
  const problems = new Problems();
  for (const p of rows) problems.add(`row ${p.row}${p.column === '' ? '' : `, ${p.column}`}`, 'invalid', p.message);
  problems.throwIfAny();
}
