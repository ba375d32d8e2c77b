import { DEEP_LINK_APPS } from '../../shared/deep-links.js';
import { DEFAULT_EVENT_STATUS } from '../../shared/event-status.js';
import { impliedProbabilityOf } from '../../shared/odds-format.js';
import { changedAtOf, DEFAULT_ODDS_STATUS, everyEventTouched, type OddsTouched, recordPriceChanges, type WrittenChanges } from './import.history.js';
import type { EventFacts } from './import.known-records.js';
import type { MarketCategory, Resolved } from './import.references.js';
import type { ImportRepository, QuoteUpdate } from './import.repository.js';
import type { Dataset } from './import.schemas.js';
import { assignSelections } from './import.selections.js';
import { ODDS_CHUNK, type StoredOdds, type StoredOddsRow, storedOdds } from './import.stored-odds.js';
import { chunksOf } from '../../platform/chunks.js';
import { numberOrNull } from '../../platform/db/column-values.js';
import { writeCompetitions, writeOutrights } from './import.competition-write.js';

type Items<A extends keyof Dataset> = NonNullable<Dataset[A]>;
type OddsItem = Items<'odds'>[number];

const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

/** The columns of a table of keyed names (sports, countries, categories, positions, dimensions). */
const KEYED = { columns: ['id', 'key', 'name'], row: (r: { id: number; key: string; name: string }) => ({ id: r.id, key: r.key, name: r.name }) };

/** What the odds changed: for grading, and the price changes as written when they are few (a feed's batch). */
export interface Written {
  touched: OddsTouched;
  changes: WrittenChanges | undefined;
}

/**
 * Upserts in dependency order, computing the derived columns; then refreshes stored rows a move affects.
 * What the odds changed is the answer (nothing when the dataset has no odds).
 */
export async function write(repo: ImportRepository, dataset: Dataset, resolved: Resolved, now: number, replace: boolean): Promise<Written> {
  const { odds, flows } = dataset;
  await writeParticipants(repo, dataset);
  await writeBettingVocabulary(repo, dataset, resolved.marketCategories);
  await writeTaxonomy(repo, dataset);
  if (dataset.events) await writeEvents(repo, dataset.events, resolved.sportOfLeague, now);
  await writeCompetitions(repo, dataset, resolved, now);
  await repo.refreshDerived(resolved.movedLeagueIds, resolved.movedEventIds);
  const stored = storedOdds(repo);
  const selections = await assignSelections(repo, stored, odds ?? [], flows ?? []);
  const leagueOf = (eventId: number) => resolved.eventFacts.get(eventId)?.league_id ?? null;
  const written: Written = odds
    ? await writeOdds(repo, stored, odds, selections.ofOdds, now, replace, leagueOf)
    : { touched: { settled: new Set<number>(), moved: new Map<number, number>() }, changes: undefined };
  if (odds) await writeOutrights(repo, odds);
  if (flows) await writeFlows(repo, flows, resolved.eventFacts, selections.ofFlows, now);
  return written;
}

/** Sports, countries, leagues, teams and players. */
async function writeParticipants(repo: ImportRepository, dataset: Dataset): Promise<void> {
  const { sports, countries, leagues, teams, players } = dataset;
  if (sports) await repo.upsert('sports', KEYED.columns, sports, KEYED.row);
  if (countries) await repo.upsert('countries', KEYED.columns, countries, KEYED.row);
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
}

/** Operators, betting-market categories, positions and markets, event periods and player statistics. */
async function writeBettingVocabulary(repo: ImportRepository, dataset: Dataset, marketCategories: ReadonlyMap<number, MarketCategory>): Promise<void> {
  const { operators, betting_market_categories, betting_market_positions, betting_markets, event_periods } = dataset;
  if (operators) {
    await repo.upsert('operators', [...KEYED.columns, ...DEEP_LINK_APPS.map((app) => app.template)], operators, (o) => ({
      ...KEYED.row(o),
      bet_web_deep_link_template: orNull(o.bet_web_deep_link_template),
      bet_ios_deep_link_template: orNull(o.bet_ios_deep_link_template),
      bet_android_deep_link_template: orNull(o.bet_android_deep_link_template),
    }));
  }
  if (betting_market_categories) await repo.upsert('betting_market_categories', KEYED.columns, betting_market_categories, KEYED.row);
  if (betting_market_positions) await repo.upsert('betting_market_positions', KEYED.columns, betting_market_positions, KEYED.row);
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
}

/** Subnational regions and the flow tag taxonomy. */
async function writeTaxonomy(repo: ImportRepository, dataset: Dataset): Promise<void> {
  const { subnational_regions, tag_dimensions, tag_types } = dataset;
  if (subnational_regions) {
    await repo.upsert('subnational_regions', ['id', 'key', 'name', 'code', 'country_id'], subnational_regions, (r) => ({
      id: r.id,
      key: r.key,
      name: r.name,
      code: r.code,
      country_id: r.country_id,
    }));
  }
  if (tag_dimensions) await repo.upsert('tag_dimensions', KEYED.columns, tag_dimensions, KEYED.row);
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
}

/** Events, with the sport of their league, and the results they carry. */
async function writeEvents(repo: ImportRepository, events: Items<'events'>, sportOfLeague: ReadonlyMap<number, number>, now: number): Promise<void> {
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
  // Only the events the dataset makes final are looked at: the cost follows what the import carries.
  await repo.markEnded(events.filter((e) => e.status === 'final').map((e) => e.id), now);
  await writeResults(repo, events);
}

/** The period scores and player statistics the events carry replace the stored ones; an event without them keeps its own. */
async function writeResults(repo: ImportRepository, events: Items<'events'>): Promise<void> {
  const withPeriods = events.filter((e) => e.period_scores !== undefined);
  await repo.deleteOfEvents('event_period_scores', withPeriods.map((e) => e.id));
  const scores = withPeriods.flatMap((e) => (e.period_scores ?? []).map((p) => ({ event_id: e.id, ...p })));
  await repo.insert('event_period_scores', ['event_id', 'event_period_id', 'home_score', 'away_score'], scores);
  const withStatistics = events.filter((e) => e.statistics !== undefined);
  await repo.deleteOfEvents('player_event_statistics', withStatistics.map((e) => e.id));
  const statistics = withStatistics.flatMap((e) => (e.statistics ?? []).map((s) => ({ event_id: e.id, ...s })));
  await repo.insert('player_event_statistics', ['event_id', 'player_id', 'statistic', 'value'], statistics);
}

/** The odds, on their selections, with their price history. */
async function writeOdds(
  repo: ImportRepository,
  stored: StoredOdds,
  odds: Items<'odds'>,
  selectionOf: ReadonlyMap<number, number>,
  now: number,
  replace: boolean,
  leagueOf: (eventId: number) => number | null,
): Promise<Written> {
  // Before the upsert: the history compares the dataset with the rows as they were. Into an
  // empty table (a first load, a replace) every row opens: recorded after it, set-based.
  const recorded = replace ? undefined : await recordPriceChanges(repo, stored, odds, now, leagueOf);
  for (const chunk of chunksOf(odds, ODDS_CHUNK)) {
    const rows = await stored(chunk);
    // A price move leaves every column but the quote as stored: those rows are updated in it alone.
    const whole: OddsItem[] = [];
    const quotes: QuoteUpdate[] = [];
    for (const o of chunk) {
      if (onlyQuoteMoves(rows.get(o.id), o, selectionOf.get(o.id))) quotes.push({ id: o.id, price_decimal: o.price_decimal, line: orNull(o.line), status: o.status ?? DEFAULT_ODDS_STATUS, updated_at: changedAtOf(o, now) });
      else whole.push(o);
    }
    await repo.upsert('odds', ODDS_COLUMNS, whole, (o) => oddsRowOf(o, selectionOf.get(o.id), now));
    await repo.updateQuotes(quotes);
  }
  if (recorded !== undefined) return { touched: recorded.touched, changes: recorded.written };
  await repo.recordOpenings(now);
  return { touched: everyEventTouched(odds), changes: undefined };
}

const ODDS_COLUMNS = [
  'id', 'event_id', 'operator_id', 'betting_market_id', 'position', 'line', 'price_decimal', 'status', 'updated_at', 'selection_id', 'player_id',
  'event_period_id', 'is_main', 'is_live', 'operator_selection_id',
];

/** An odds item as its stored row, on its selection. */
function oddsRowOf(o: OddsItem, selectionId: number | undefined, now: number): Record<string, unknown> {
  return {
    id: o.id,
    event_id: o.event_id,
    operator_id: o.operator_id,
    betting_market_id: o.betting_market_id,
    position: o.position,
    line: orNull(o.line),
    price_decimal: o.price_decimal,
    status: o.status ?? DEFAULT_ODDS_STATUS,
    updated_at: changedAtOf(o, now),
    selection_id: selectionId,
    player_id: orNull(o.player_id),
    event_period_id: orNull(o.event_period_id),
    // A row re-imported without them is a main-line, pre-match price again, as every field absent is its default.
    is_main: (o.is_main ?? true) ? 1 : 0,
    is_live: (o.is_live ?? false) ? 1 : 0,
    operator_selection_id: orNull(o.operator_selection_id),
  };
}

/** Whether the item's row is stored with every column as the item gives it but its quote (price, line, status) and time. */
function onlyQuoteMoves(row: StoredOddsRow | undefined, o: OddsItem, selectionId: number | undefined): boolean {
  return (
    row !== undefined &&
    Number(row.event_id) === o.event_id &&
    Number(row.operator_id) === o.operator_id &&
    Number(row.betting_market_id) === o.betting_market_id &&
    String(row.position) === o.position &&
    numberOrNull(row.selection_id) === (selectionId ?? null) &&
    numberOrNull(row.player_id) === (o.player_id ?? null) &&
    numberOrNull(row.event_period_id) === (o.event_period_id ?? null) &&
    Number(row.is_main) === ((o.is_main ?? true) ? 1 : 0) &&
    Number(row.is_live) === ((o.is_live ?? false) ? 1 : 0) &&
    (row.operator_selection_id === null ? null : String(row.operator_selection_id)) === (o.operator_selection_id ?? null)
  );
}

/** The flows, with the league and sport of their event, then their legs and tags. */
async function writeFlows(
  repo: ImportRepository,
  flows: Items<'flows'>,
  eventFacts: ReadonlyMap<number, EventFacts>,
  selectionOf: ReadonlyMap<number, number>,
  now: number,
): Promise<void> {
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
      selection_id: selectionOf.get(f.id) ?? null,
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
  await repo.insert('flow_legs', ['flow_id', 'leg_id', 'position'], legs);
  // Tags likewise: the ones a flow carries now.
  await repo.deleteOfFlows('flow_tags', flowIds);
  await repo.insert('flow_tags', ['flow_id', 'tag_type_id'], flows.flatMap((f) => (f.tag_type_ids ?? []).map((tagId) => ({ flow_id: f.id, tag_type_id: tagId }))));
}

/** A flow's games as stored, oldest first (a stable sort keeps the file's order within a day). */
function hitHistoryOf(games: NonNullable<Items<'flows'>[number]['hit_history']>): string {
  const byDate = [...games].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return JSON.stringify(byDate.map(({ date, opponent_team_id, hit }) => ({ date, opponent_team_id, hit })));
}
