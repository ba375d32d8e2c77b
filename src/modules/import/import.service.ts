import type { Transaction } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, DialectName } from '../../platform/db/database.js';
import { inForeground } from '../../platform/db/loop-slices.js';
import type { Schema } from '../../platform/db/schema.js';
import type { RecentChanges } from '../history/index.js';
import { computeFlows, eventsOfMarkets, gradeEvents, markGradingDue } from '../results/index.js';
import { webhookOutbox } from '../webhooks/index.js';
import { type EventChanges, eventChanges } from './import.event-changes.js';
import { checkSchema, checkWithinDataset } from './import.checks.js';
import { priceUpdatedRows } from './import.price-updates.js';
import { withOutrights } from './import.competition-write.js';
import { checkReferences } from './import.references.js';
import { refuseSourceOwned, writeAliases } from './import.identity.js';
import { deleteIdentities } from './import-identity.repository.js';
import type { OddsTouched, WrittenChanges } from './import.history.js';
import { createImportRepository, hasNoSportsData, type ImportRepository } from './import.repository.js';
import { DATASET_ARRAYS, type Dataset } from './import.schemas.js';
import type { ImportResult, QueueReleased } from './import-result.schemas.js';
import { write } from './import.write.js';

/**
 * The bulk import (docs/operations.md#loading-data), shared by POST /admin/v1/import, `sportsdata import` and
 * the demo dataset. All or nothing: the whole dataset is checked (schema, rules, references)
 * before the first write, and the writes form one transaction.
 */
export interface ImportService {
  /** Imports a dataset of unknown shape (a file, a request body): its schema is checked first. */
  import(input: unknown, options?: ImportOptions): Promise<ImportResult>;
  /** Imports a dataset whose schema is already known good (the route's validation, our own code). */
  importChecked(dataset: Dataset, options?: ImportOptions): Promise<ImportResult>;
  /** Imports only into a database without sports data: undefined when data is there. */
  importIntoEmpty(dataset: Dataset, options?: Pick<ImportOptions, 'grade'>): Promise<ImportResult | undefined>;
  /** True when the database holds no sports data (no sport stored): a dataset may be generated into it. */
  hasNoSportsData(): Promise<boolean>;
  /**
   * Runs `work` inside one import transaction (the source importer, decision 0296): it reads and
   * writes its own tables with the transaction, and imports datasets through `within.write`, each
   * checked and written as an import is, in the order written (a selection's earlier price before
   * its later one). All of it commits together, then the events it touched are graded.
   */
  importWithin<T>(work: (within: WithinImport) => Promise<T>): Promise<{ value: T; result: ImportResult }>;
}

/** What the work of importWithin is given: the transaction, and the import's writer in it. */
export interface WithinImport {
  trx: Transaction<Schema>;
  dialect: DialectName;
  /** The import's clock, read once for the transaction. */
  now: number;
  /** Checks and writes a dataset in the transaction, as POST /admin/v1/import would (the source-owned check aside). */
  write(dataset: Dataset): Promise<void>;
}

export interface ImportOptions {
  /**
   * Replace every sports-data row instead of upserting over them (the demo's `--force`), in
   * the same transaction as the import. Clients and tokens are untouched.
   */
  replace?: boolean;
  /**
   * Grade the events the dataset touched once it commits (the default). The demo's first load
   * and its price moves leave it to one grading at the end: the moves would re-grade the same
   * events again and again as their closing prices move.
   */
  grade?: boolean;
}

type Upserted = ImportResult['upserted'];

/**
 * Imports, in the import's transaction, the rows a source's review queue kept waiting on the names
 * a dataset's aliases bind (decision 0296). The sources module's, passed in: import does not depend on it.
 */
export type ReleaseAliased = (within: WithinImport, aliases: NonNullable<Dataset['aliases']>) => Promise<QueueReleased | undefined>;

/** What the import uses. */
interface ImportDeps {
  database: Database;
  clock: Clock;
  changes: ChangeFeed;
  /** Without it (the demo), a dataset's aliases are stored and the queue waits for the next alias posted or source import. */
  releaseAliased?: ReleaseAliased;
  /**
   * Events per grading transaction after the import commits. A serving node grades one at a time, so its reads wait
   * for one event's grades at most (decision 0249); a process that serves nobody (the CLI) takes more.
   */
  gradingBatch?: number;
  /** Where a feed's batch of price changes is held after the commit for this node's readers (the serving process's). */
  recent?: RecentChanges;
}

export function createImportService(deps: ImportDeps): ImportService {
  const { database, clock, changes } = deps;

  /**
   * Imports a dataset whose schema is already known good: checked by the route's body
   * validation (the same schema and validator), or built by our own code (the demo). Checking
   * a million odds against the schema again would cost seconds and find nothing.
   */
  async function importChecked(dataset: Dataset, options: ImportOptions = {}): Promise<ImportResult> {
    const done = await run(dataset, options.replace ?? false, false);
    return answerOf(deps, dataset, done?.due ?? [], options, done?.released);
  }

  /**
   * One transaction, which also marks due the events to grade once it commits; their ids (and
   * what the dataset's aliases released from the review queue), or undefined (and nothing written)
   * when `onlyIntoEmpty` finds data already there.
   */
  async function run(dataset: Dataset, replace: boolean, onlyIntoEmpty: boolean): Promise<{ due: number[]; released?: QueueReleased } | undefined> {
    checkWithinDataset(dataset);
    const now = clock.now();
    // Foreground: where a thread puts it first (the import thread), the work after the imports waits for its commit.
    const done = await inForeground(() =>
      database.db.transaction().execute(async (trx) => {
        const repo = createImportRepository(trx, database.dialect);
        await repo.lockForImport();
        // The bump writes first: on SQLite the transaction then holds the write lock before it
        // reads anything, so a concurrent import waits for this one instead of failing on a stale read.
        await changes.bump(trx, 'data');
        if (onlyIntoEmpty && !(await repo.isEmpty())) return undefined;
        const events = eventChanges();
        const written = await writeDataset(deps, trx, repo, dataset, replace, now, events);
        await webhookOutbox.record(trx, events.rows(now));
        return written;
      }),
    );
    // After commit, before anyone is told: the board's processor and the streams take them from here.
    if (done?.written) deps.recent?.hold(done.written.after, done.written.rows);
    // After commit: this node's caches drop now, other nodes' within one poll.
    await changes.changed('data');
    return done;
  }

  async function importWithin<T>(work: (within: WithinImport) => Promise<T>): Promise<{ value: T; result: ImportResult }> {
    const now = clock.now();
    const written: Dataset[] = [];
    const { value, due } = await database.db.transaction().execute(async (trx) => {
      const repo = createImportRepository(trx, database.dialect);
      await repo.lockForImport();
      await changes.bump(trx, 'data');
      const candidates = new Set<number>();
      const events = eventChanges();
      const value = await work(writerIn(database.dialect, trx, repo, now, { candidates, written, events }));
      await webhookOutbox.record(trx, events.rows(now));
      return { value, due: await markGradingDue(trx, [...candidates], now) };
    });
    await changes.changed('data');
    const merged: Dataset = {};
    for (const dataset of written) for (const array of DATASET_ARRAYS) if (dataset[array]) (merged[array] as unknown[]) = [...(merged[array] ?? []), ...dataset[array]];
    return { value, result: { upserted: sumCounts(written), ...(await settle(deps, merged, due)) } };
  }

  return {
    import: (input, options = {}) => importChecked(checkSchema(input), options),
    importChecked,
    // The demo dataset of a first start: undefined also when another node filled it a moment ago.
    async importIntoEmpty(dataset, options = {}) {
      const done = await run(dataset, false, true);
      return done === undefined ? undefined : answerOf(deps, dataset, done.due, options, done.released);
    },
    hasNoSportsData: () => hasNoSportsData(database.db),
    importWithin,
  };
}

/** The dataset checked and written in the import's transaction, what its aliases release with it, and the events now due to grade. */
async function writeDataset(
  deps: ImportDeps,
  trx: Transaction<Schema>,
  repo: ImportRepository,
  dataset: Dataset,
  replace: boolean,
  now: number,
  events: EventChanges,
): Promise<{ due: number[]; released?: QueueReleased; written?: WrittenChanges }> {
  if (!replace) await refuseSourceOwned(trx, dataset);
  // References are read inside the transaction, so they are checked against what commits with them.
  const resolved = await checkReferences(dataset, repo, { replace });
  // Price updates are written as the whole rows they make, after the dataset's own odds.
  const updated = await withOutrights(await priceUpdatedRows(dataset, repo, { replace }), repo);
  if (replace) {
    await repo.deleteAllData();
    await deleteIdentities(trx);
  }
  const { touched, changes: written } = await write(repo, updated.length === 0 ? dataset : { ...dataset, odds: [...(dataset.odds ?? []), ...updated] }, resolved, now, replace);
  events.note(dataset, resolved);
  await writeAliases(trx, repo, dataset.aliases ?? [], now);
  const candidates = new Set(await gradingCandidates(trx, repo, dataset, touched));
  // The rows that waited on the names just bound land with them, or not at all.
  const within = writerIn(deps.database.dialect, trx, repo, now, { candidates, written: [], events });
  const released = deps.releaseAliased && (dataset.aliases ?? []).length > 0 ? await deps.releaseAliased(within, dataset.aliases ?? []) : undefined;
  // Due with the import, not after it: a node stopped before the grading leaves the marker (decision 0280).
  // The changes are held for this node's readers only when they are the import's last ones (no released rows after them).
  const due = await markGradingDue(trx, [...candidates], now);
  if (released) return { due, released };
  return written === undefined ? { due } : { due, written };
}

/** What the writer in a transaction gathers for the transaction: the events to grade, the datasets written, the events' changes to tell. */
interface Gathered {
  candidates: Set<number>;
  written: Dataset[];
  events: EventChanges;
}

/** The import's writer in a transaction: each dataset checked and written as an import is, what it gives gathered. */
function writerIn(dialect: DialectName, trx: Transaction<Schema>, repo: ImportRepository, now: number, { candidates, written, events }: Gathered): WithinImport {
  return {
    trx,
    dialect,
    now,
    async write(dataset) {
      checkWithinDataset(dataset);
      const resolved = await checkReferences(dataset, repo, { replace: false });
      const { touched } = await write(repo, dataset, resolved, now, false);
      events.note(dataset, resolved);
      await writeAliases(trx, repo, dataset.aliases ?? [], now);
      for (const id of await gradingCandidates(trx, repo, dataset, touched)) candidates.add(id);
      written.push(dataset);
    },
  };
}

/**
 * The events whose grades the dataset may change: its events and competitions (and those of its participants), the events priced in its markets (a
 * market's settlement may have changed), the events of its odds that are new or change what they are
 * graded on, and those whose prices moved before the event started (its closing price). A live
 * feed's moves after the start regrade nothing: grading them again after every import cost more
 * than the import itself.
 */
async function gradingCandidates(trx: Transaction<Schema>, repo: ImportRepository, dataset: Dataset, touched: OddsTouched): Promise<number[]> {
  const candidates = new Set<number>(touched.settled);
  for (const event of dataset.events ?? []) candidates.add(event.id);
  // A competition's results are its participants': a participant's new result may change its grades.
  for (const competition of dataset.competitions ?? []) candidates.add(competition.id);
  for (const participant of dataset.competition_participants ?? []) candidates.add(participant.competition_id);
  const moved = [...touched.moved.keys()].filter((id) => !candidates.has(id));
  for (const [id, start] of await repo.startTimes(moved)) if ((touched.moved.get(id) ?? 0) < start) candidates.add(id);
  const markets = (dataset.betting_markets ?? []).map((m) => m.id);
  if (markets.length > 0) for (const id of await eventsOfMarkets(trx, markets)) candidates.add(id);
  return [...candidates];
}

function countsOf(dataset: Dataset): Upserted {
  const upserted: Upserted = {};
  for (const array of [...DATASET_ARRAYS, 'aliases'] as const) {
    const items = dataset[array];
    if (items) upserted[array] = items.length;
  }
  if (dataset.price_updates) upserted.price_updates = dataset.price_updates.length;
  return upserted;
}

/** The counts of several datasets written in one transaction, added up. */
function sumCounts(datasets: readonly Dataset[]): Upserted {
  const sum: Upserted = {};
  for (const dataset of datasets) for (const [array, count] of Object.entries(countsOf(dataset)) as Array<[keyof Upserted, number]>) sum[array] = (sum[array] ?? 0) + count;
  return sum;
}

/** The counts imported, then the grading and the trends unless the caller leaves them to later (`grade: false`). */
async function answerOf(deps: ImportDeps, dataset: Dataset, due: readonly number[], options: Pick<ImportOptions, 'grade'>, released?: QueueReleased): Promise<ImportResult> {
  return { upserted: countsOf(dataset), ...(released ? { released } : {}), ...(options.grade === false ? {} : await settle(deps, dataset, due)) };
}

/** The grading, then the trends the results prove: the import's answer says where its flows disagree with them. */
async function settle(deps: ImportDeps, dataset: Dataset, due: readonly number[]): Promise<Pick<ImportResult, 'graded' | 'warnings'>> {
  const { gradedEventIds, graded } = await grade(deps, due);
  if (graded.grades === 0 && (dataset.flows ?? []).length === 0) return { graded };
  const imported = new Map((dataset.flows ?? []).map((f) => [f.id, { hits: f.hits, total: f.total }]));
  // Only the trends of the teams whose games were just graded can have moved, and the dataset's own.
  const warnings = await computeFlows({ db: deps.database.db, changes: deps.changes }, imported, graded.grades === 0 ? [] : gradedEventIds);
  return { graded, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** After the commit, the events the import made due are graded (docs/data.md#results-and-grading). */
async function grade(deps: ImportDeps, due: readonly number[]): Promise<{ graded: NonNullable<ImportResult['graded']>; gradedEventIds: number[] }> {
  if (due.length === 0) return { graded: { events: 0, grades: 0 }, gradedEventIds: [] };
  const { events, eventIds, written } = await gradeEvents({ db: deps.database.db, changes: deps.changes }, due, deps.clock.now(), deps.gradingBatch);
  return { graded: { events, grades: written }, gradedEventIds: eventIds };
}
