import { DEEP_LINK_APPS } from '../../shared/deep-links.js';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { Schema } from '../../platform/db/schema.js';
import type { Transaction } from 'kysely';
import { impliedProbabilityOf } from '../../shared/odds-format.js';
import { DEFAULT_EVENT_STATUS } from '../../shared/event-status.js';
import { computeFlows, eventsOfMarkets, gradeEvents, markGradingDue } from '../results/index.js';
import { checkSchema, checkWithinDataset } from './import.checks.js';
import { changedAtOf, DEFAULT_ODDS_STATUS, recordPriceChanges } from './import.history.js';
import { checkReferences, type Resolved } from './import.references.js';
import { createImportRepository, type ImportRepository } from './import.repository.js';
import { assignSelections } from './import.selections.js';
import { DATASET_ARRAYS, type Dataset, type ImportResult } from './import.schemas.js';

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
 * The bulk import (docs/operations.md#loading-data), shared by POST /admin/v1/import, `sportsdata import` and
 * the demo dataset. All or nothing: the whole dataset is checked (schema, rules, references)
 * before the first write, and the writes form one transaction.
 */
export function createImportService(deps: { database: Database; clock: Clock; changes: ChangeFeed }) {
  const { database, clock, changes } = deps;

  /**
   * Imports a dataset whose schema is already known good: checked by the route's body
   * validation (the same schema and validator), or built by our own code (the demo). Checking
   * a million odds against the schema again would cost seconds and find nothing.
   */
  async function importChecked(dataset: Dataset, options: ImportOptions = {}): Promise<ImportResult> {
    const due = (await run(dataset, options.replace ?? false, false)) ?? [];
    return { upserted: countsOf(dataset), ...(options.grade === false ? {} : await settle(dataset, due)) };
  }

  /** The grading, then the trends the results prove: the import's answer says where its flows disagree with them. */
  async function settle(dataset: Dataset, due: readonly number[]): Promise<Pick<ImportResult, 'graded' | 'warnings'>> {
    const { gradedEventIds, graded } = await grade(due);
    if (graded.grades === 0 && (dataset.flows ?? []).length === 0) return { graded };
    const imported = new Map((dataset.flows ?? []).map((f) => [f.id, { hits: f.hits, total: f.total }]));
    // Only the trends of the teams whose games were just graded can have moved, and the dataset's own.
    const warnings = await computeFlows({ db: database.db, changes }, imported, graded.grades === 0 ? [] : gradedEventIds);
    return { graded, ...(warnings.length > 0 ? { warnings } : {}) };
  }

  /** After the commit, the events the import made due are graded (docs/data.md#results-and-grading). */
  async function grade(due: readonly number[]): Promise<{ graded: NonNullable<ImportResult['graded']>; gradedEventIds: number[] }> {
    if (due.length === 0) return { graded: { events: 0, grades: 0 }, gradedEventIds: [] };
    const { events, eventIds, written } = await gradeEvents({ db: database.db, changes }, due, clock.now());
    return { graded: { events, grades: written }, gradedEventIds: eventIds };
  }

  /**
   * One transaction, which also marks due the events to grade once it commits; their ids, or
   * undefined (and nothing written) when `onlyIntoEmpty` finds data already there.
   */
  async function run(dataset: Dataset, replace: boolean, onlyIntoEmpty: boolean): Promise<number[] | undefined> {
    checkWithinDataset(dataset);
    const now = clock.now();
    const due = await database.db.transaction().execute(async (trx) => {
      const repo = createImportRepository(trx, database.dialect);
      await repo.lockForImport();
      // The bump writes first: on SQLite the transaction then holds the write lock before it
      // reads anything, so a concurrent import waits for this one instead of failing on a stale read.
      await changes.bump(trx, 'data');
      if (onlyIntoEmpty && !(await repo.isEmpty())) return undefined;
      // References are read inside the transaction, so they are checked against what commits with them.
      const resolved = await checkReferences(dataset, repo, { replace });
      if (replace) await repo.deleteAllData();
      await write(repo, trx, dataset, resolved, now, replace);
      // Due with the import, not after it: a node stopped before the grading leaves the marker (decision 0280).
      return markGradingDue(trx, await gradingCandidates(trx, dataset), now);
    });
    // After commit: this node's caches drop now, other nodes' within one poll.
    await changes.changed('data');
    return due;
  }

  return {
    /** Imports a dataset of unknown shape (a file, a request body): its schema is checked first. */
    import: (input: unknown, options: ImportOptions = {}) => importChecked(checkSchema(input), options),
    importChecked,
    /**
     * Imports only into a database without sports data (the demo dataset of a first start):
     * undefined when data is there, also when another node filled it a moment ago.
     */
    async importIntoEmpty(dataset: Dataset, options: Pick<ImportOptions, 'grade'> = {}): Promise<ImportResult | undefined> {
      const due = await run(dataset, false, true);
      if (due === undefined) return undefined;
      return { upserted: countsOf(dataset), ...(options.grade === false ? {} : await settle(dataset, due)) };
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;

/**
 * The events whose grades the dataset may change: its events, the events of its odds, and the
 * events priced in its markets (a market's settlement may have changed).
 */
async function gradingCandidates(trx: Transaction<Schema>, dataset: Dataset): Promise<number[]> {
  const candidates = new Set<number>();
  for (const event of dataset.events ?? []) candidates.add(event.id);
  for (const row of dataset.odds ?? []) candidates.add(row.event_id);
  const markets = (dataset.betting_markets ?? []).map((m) => m.id);
  if (markets.length > 0) for (const id of await eventsOfMarkets(trx, markets)) candidates.add(id);
  return [...candidates];
}

function countsOf(dataset: Dataset): Upserted {
  const upserted: Upserted = {};
  for (const array of DATASET_ARRAYS) {
    const items = dataset[array];
    if (items) upserted[array] = items.length;
  }
  return upserted;
}

const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

/** Upserts in dependency order, computing the derived columns; then refreshes stored rows a move affects. */
async function write(repo: ImportRepository, trx: Transaction<Schema>, dataset: Dataset, resolved: Resolved, now: number, replace: boolean): Promise<void> {
  const { sportOfLeague, eventFacts, marketCategories } = resolved;
  const { sports, countries, leagues, teams, players, operators, betting_market_categories, betting_market_positions, betting_markets, event_periods, events, odds, flows } =
    dataset;
  const { subnational_regions, tag_dimensions, tag_types } = dataset;
  const keyed = { columns: ['id', 'key', 'name'], row: (r: { id: number; key: string; name: string }) => ({ id: r.id, key: r.key, name: r.name }) };

  if (sports) await repo.upsert('sports', keyed.columns, sports, keyed.row);
  if (countries) await repo.upsert('countries', keyed.columns, countries, keyed.row);
  if (leagues) {
    await repo.upsert('leagues', ['id', 'key', 'name', 'sport_id', 'country_key', 'country_name', 'is_popular'], leagues, (l) => ({
      id: l.id,
      key: l.key,
      name: l.name,
      sport_id: l.sport_id,
      country_key: orNull(l.country_key),
      country_name: orNull(l.country_name),
      is_popular: l.is_popular === true ? 1 : 0,
    }));
  }
  if (teams) {
    await repo.upsert('teams', ['id', 'key', 'name', 'abbreviation', 'location', 'league_id'], teams, (t) => ({
      id: t.id,
      key: t.key,
      name: t.name,
      abbreviation: orNull(t.abbreviation),
      location: orNull(t.location),
      league_id: t.league_id,
    }));
  }
  if (players) {
    await repo.upsert('players', ['id', 'key', 'name', 'position', 'team_id'], players, (p) => ({
      id: p.id,
      key: p.key,
      name: p.name,
      position: orNull(p.position),
      team_id: p.team_id,
    }));
  }
  if (operators) {
    await repo.upsert('operators', [...keyed.columns, ...DEEP_LINK_APPS.map((app) => app.template)], operators, (o) => ({
      ...keyed.row(o),
      bet_web_deep_link_template: orNull(o.bet_web_deep_link_template),
      bet_ios_deep_link_template: orNull(o.bet_ios_deep_link_template),
      bet_android_deep_link_template: orNull(o.bet_android_deep_link_template),
    }));
  }
  if (betting_market_categories) await repo.upsert('betting_market_categories', keyed.columns, betting_market_categories, keyed.row);
  if (betting_market_positions) await repo.upsert('betting_market_positions', keyed.columns, betting_market_positions, keyed.row);
  if (betting_markets) {
    const columns = ['id', 'key', 'name', 'category', 'category_id', 'entity_type', 'sport_id', 'settlement_rule', 'settlement_stat', 'settlement_period'];
    await repo.upsert('betting_markets', columns, betting_markets, (m) => ({
      id: m.id,
      key: m.key,
      name: m.name,
      category: marketCategories.get(m.id)?.key ?? m.category,
      category_id: marketCategories.get(m.id)?.id ?? null,
      entity_type: m.entity_type,
      sport_id: orNull(m.sport_id),
      settlement_rule: m.settlement?.rule ?? null,
      settlement_stat: m.settlement?.stat ?? null,
      settlement_period: m.settlement?.period ?? null,
    }));
  }
  if (event_periods) {
    await repo.upsert('event_periods', ['id', 'key', 'name', 'sport_id'], event_periods, (p) => ({ id: p.id, key: p.key, name: p.name, sport_id: p.sport_id }));
  }
  if (dataset.player_statistics) {
    await repo.upsert('player_statistics', ['id', 'key', 'name', 'sport_id'], dataset.player_statistics, (p) => ({ id: p.id, key: p.key, name: p.name, sport_id: p.sport_id }));
  }
  if (subnational_regions) {
    await repo.upsert('subnational_regions', ['id', 'key', 'name', 'code', 'country_id'], subnational_regions, (r) => ({
      id: r.id,
      key: r.key,
      name: r.name,
      code: r.code,
      country_id: r.country_id,
    }));
  }
  if (tag_dimensions) await repo.upsert('tag_dimensions', keyed.columns, tag_dimensions, keyed.row);
  if (tag_types) {
    await repo.upsert('tag_types', ['id', 'key', 'name', 'dimension_id', 'parent_id', 'terminal', 'is_value', 'flow_types'], tag_types, (t) => ({
      id: t.id,
      key: t.key,
      name: t.name,
      dimension_id: t.dimension_id,
      parent_id: orNull(t.parent_id),
      // Unsaid: decided when the taxonomy is read, from the children the type has then.
      terminal: t.terminal === undefined ? null : t.terminal ? 1 : 0,
      is_value: t.is_value === true ? 1 : 0,
      flow_types: t.flow_types === undefined ? null : t.flow_types.join(','),
    }));
  }
  if (events) {
    const columns = ['id', 'league_id', 'sport_id', 'start_time', 'status', 'home_team_id', 'away_team_id', 'home_score', 'away_score'];
    await repo.upsert('events', columns, events, (e) => ({
      id: e.id,
      league_id: e.league_id,
      sport_id: sportOfLeague.get(e.league_id),
      start_time: Date.parse(e.start_time),
      status: e.status ?? DEFAULT_EVENT_STATUS,
      home_team_id: e.home_team_id,
      away_team_id: e.away_team_id,
      home_score: orNull(e.home_score),
      away_score: orNull(e.away_score),
    }));
    await writeResults(repo, events);
  }
  await repo.refreshDerived(resolved.movedLeagueIds, resolved.movedEventIds);
  const selections = await assignSelections(trx, odds ?? [], flows ?? []);

  if (odds) {
    // Before the upsert: the history compares the dataset with the rows as they were. Into an
    // empty table (a first load, a replace) every row opens: recorded after it, set-based.
    const fresh = replace || (await repo.isEmptyTable('odds'));
    if (!fresh) await recordPriceChanges(repo, odds, now);
    const columns = [
      'id', 'event_id', 'operator_id', 'betting_market_id', 'position', 'line', 'price_decimal', 'status', 'updated_at', 'selection_id', 'player_id',
      'event_period_id', 'is_main', 'is_live', 'operator_selection_id',
    ];
    await repo.upsert('odds', columns, odds, (o) => ({
      id: o.id,
      event_id: o.event_id,
      operator_id: o.operator_id,
      betting_market_id: o.betting_market_id,
      position: o.position,
      line: orNull(o.line),
      price_decimal: o.price_decimal,
      status: o.status ?? DEFAULT_ODDS_STATUS,
      updated_at: changedAtOf(o, now),
      selection_id: selections.ofOdds.get(o.id),
      player_id: orNull(o.player_id),
      event_period_id: orNull(o.event_period_id),
      // A row re-imported without them is a main-line, pre-match price again, as every field absent is its default.
      is_main: (o.is_main ?? true) ? 1 : 0,
      is_live: (o.is_live ?? false) ? 1 : 0,
      operator_selection_id: orNull(o.operator_selection_id),
    }));
    if (fresh) await repo.recordOpenings();
  }
  if (flows) {
    const columns = [
      'id', 'flow_type', 'bet_type', 'event_id', 'sport_id', 'league_id', 'focus_entity_type', 'focus_entity_id', 'betting_market_id',
      'line', 'split', 'description', 'hits', 'total', 'hit_rate_pct', 'likelihood', 'price_decimal', 'implied_probability', 'hit_history',
      'updated_at', 'selection_id', 'fact_flow_type', 'source', 'disagrees',
    ];
    await repo.upsert('flows', columns, flows, (f) => {
      const event = eventFacts.get(f.event_id);
      return {
        id: f.id,
        flow_type: f.flow_type,
        bet_type: (f.leg_ids ?? []).length > 0 ? 'parlay' : 'single',
        event_id: f.event_id,
        sport_id: event?.sport_id,
        league_id: event?.league_id,
        focus_entity_type: f.focus_entity_type,
        // An event-focused flow is about its own event: stored so that every focus is one join.
        focus_entity_id: f.focus_entity_type === 'event' ? f.event_id : orNull(f.focus_entity_id),
        betting_market_id: orNull(f.betting_market_id),
        line: orNull(f.line),
        split: orNull(f.split),
        description: f.description,
        hits: f.hits,
        total: f.total,
        // hits × 100 / total, not hits / total × 100: 7/10 is then exactly 70, not 70.00000000000001.
        hit_rate_pct: (f.hits * 100) / f.total,
        likelihood: f.likelihood,
        price_decimal: orNull(f.price_decimal),
        implied_probability: f.price_decimal === null || f.price_decimal === undefined ? null : impliedProbabilityOf(f.price_decimal),
        hit_history: f.hit_history === undefined ? null : hitHistoryOf(f.hit_history),
        updated_at: now,
        selection_id: selections.ofFlows.get(f.id) ?? null,
        // Only a fact flow has a sub-type: the others are base whatever the file says.
        fact_flow_type: f.flow_type === 'fact' ? (f.fact_flow_type ?? 'base') : 'base',
        // As imported; the results computed after the commit may take over (computed trends).
        source: 'imported',
        disagrees: 0,
      };
    });
    // A re-imported flow's legs are replaced by the ones it carries now (none → a single).
    const flowIds = flows.map((f) => f.id);
    await repo.deleteOfFlows('flow_legs', flowIds);
    const legs = flows.flatMap((f) => (f.leg_ids ?? []).map((legId, position) => ({ flow_id: f.id, leg_id: legId, position })));
    await repo.insert('flow_legs', 3, legs);
    // Tags likewise: the ones a flow carries now.
    await repo.deleteOfFlows('flow_tags', flowIds);
    await repo.insert('flow_tags', 2, flows.flatMap((f) => (f.tag_type_ids ?? []).map((tagId) => ({ flow_id: f.id, tag_type_id: tagId }))));
  }
}

/** The period scores and player statistics the events carry replace the stored ones; an event without them keeps its own. */
async function writeResults(repo: ImportRepository, events: NonNullable<Dataset['events']>): Promise<void> {
  const withPeriods = events.filter((e) => e.period_scores !== undefined);
  await repo.deleteOfEvents('event_period_scores', withPeriods.map((e) => e.id));
  const scores = withPeriods.flatMap((e) => (e.period_scores ?? []).map((p) => ({ event_id: e.id, ...p })));
  await repo.insertMany('event_period_scores', ['event_id', 'event_period_id', 'home_score', 'away_score'], scores);
  const withStatistics = events.filter((e) => e.statistics !== undefined);
  await repo.deleteOfEvents('player_event_statistics', withStatistics.map((e) => e.id));
  const statistics = withStatistics.flatMap((e) => (e.statistics ?? []).map((s) => ({ event_id: e.id, ...s })));
  await repo.insertMany('player_event_statistics', ['event_id', 'player_id', 'statistic', 'value'], statistics);
}

/** A flow's games as stored, oldest first (a stable sort keeps the file's order within a day). */
function hitHistoryOf(games: NonNullable<NonNullable<Dataset['flows']>[number]['hit_history']>): string {
  const byDate = [...games].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return JSON.stringify(byDate.map(({ date, opponent_team_id, hit }) => ({ date, opponent_team_id, hit })));
}
