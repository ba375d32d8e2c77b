import { Problems } from './import.checks.js';
import type { DataTable, ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';
import { checkOddsPositions } from './import.positions.js';
import { checkResults } from './import.results.js';
import { checkTagTree } from './import.taxonomy.js';

/**
 * Every reference of a dataset must name a record of the same dataset or one already stored.
 * Ids are checked against in-memory sets: the dataset's own ids, plus the stored rows among
 * the ids it references but does not carry (fetched once per table, in chunks) — so a
 * million odds cost a million set lookups, not a million queries.
 */

export interface EventFacts {
  league_id: number;
  sport_id: number;
}

export interface Resolved {
  /** The sport of every league the dataset's teams and events use (dataset first, then stored). */
  sportOfLeague: Map<number, number>;
  /** League and sport of every event the dataset's odds and flows use. */
  eventFacts: Map<number, EventFacts>;
  /** Stored leagues the dataset moves to another sport: their events and flows are refreshed. */
  movedLeagueIds: number[];
  /** Stored events the dataset moves to another league: their flows are refreshed. */
  movedEventIds: number[];
  /** The category of every market of the dataset: its record (null when its text names none) and key. */
  marketCategories: Map<number, MarketCategory>;
}

export interface MarketCategory {
  id: number | null;
  key: string;
}

interface LegFacts {
  event_id: number;
  parlay: boolean;
}

export async function checkReferences(dataset: Dataset, repo: ImportRepository, options: { replace: boolean }): Promise<Resolved> {
  const problems = new Problems();
  const known = await knownRecords(dataset, knownIn(repo, options));
  const ref = referenceCheck(problems);
  checkCatalogueReferences(dataset, known, ref, problems);
  await checkTagTree(dataset, repo, options, problems);
  await checkResults(dataset, repo, options, known.sportOfLeague, problems);
  checkEventReferences(dataset.events ?? [], known, ref);
  checkOddsReferences(dataset.odds ?? [], known, ref, problems);
  await checkOddsPositions(dataset.odds ?? [], dataset, known.marketRules, repo, options, problems);
  checkFlowReferences(dataset.flows ?? [], known, ref, problems);
  problems.throwIfAny();

  const marketCategories = await categoriesOfMarkets(dataset, known.categoryKeys, repo, options);
  return { sportOfLeague: known.sportOfLeague, eventFacts: known.eventFacts, marketCategories, ...(await moved(dataset, repo, options)) };
}

/** The dataset's records of a table, completed with the stored ones among `referenced`. */
type Known = <T>(
  table: DataTable,
  own: Map<number, T>,
  referenced: Iterable<number | null | undefined>,
  columns: readonly string[],
  fromRow: (row: Record<string, number | string | null>) => T,
) => Promise<Map<number, T>>;

function knownIn(repo: ImportRepository, options: { replace: boolean }): Known {
  const stored = async <C extends string>(table: DataTable, ids: Set<number>, columns: readonly C[]) =>
    options.replace || ids.size === 0 ? [] : repo.existing(table, ids, columns);
  return async (table, own, referenced, columns, fromRow) => {
    const missing = new Set<number>();
    for (const id of referenced) if (id !== null && id !== undefined && !own.has(id)) missing.add(id);
    for (const row of await stored(table, missing, columns)) own.set(Number(row.id), fromRow(row));
    return own;
  };
}

/** Every record the dataset's references may name: its own, and the stored ones it references. */
interface KnownRecords {
  sportIds: Map<number, true>;
  sportOfLeague: Map<number, number>;
  teamIds: Map<number, true>;
  playerIds: Map<number, true>;
  /** The sport of each event period. */
  periodSports: Map<number, number>;
  operatorIds: Map<number, true>;
  /** The key of each betting-market category. */
  categoryKeys: Map<number, string>;
  /** The settlement rule of each betting market (null: none). */
  marketRules: Map<number, string | null>;
  countryIds: Map<number, true>;
  dimensionIds: Map<number, true>;
  tagTypeIds: Map<number, true>;
  eventFacts: Map<number, EventFacts>;
  legFacts: Map<number, LegFacts>;
}

const ids = (items: ReadonlyArray<{ id: number }> | undefined) => new Map((items ?? []).map((item) => [item.id, true as const]));
const present = () => true as const;

/** Read one table at a time, in the order of the tables' dependencies. */
async function knownRecords(dataset: Dataset, known: Known): Promise<KnownRecords> {
  const { sports = [], leagues = [], teams = [], players = [], betting_market_categories = [], betting_markets = [], event_periods = [], events = [], odds = [], flows = [] } =
    dataset;
  const { subnational_regions: regions = [], tag_types: tagTypes = [] } = dataset;

  const sportIds = await known(
    'sports',
    ids(sports),
    [...leagues.map((l) => l.sport_id), ...betting_markets.map((m) => m.sport_id), ...event_periods.map((p) => p.sport_id)],
    [],
    present,
  );
  const sportOfLeague = await known(
    'leagues',
    new Map(leagues.map((l) => [l.id, l.sport_id])),
    [...teams.map((t) => t.league_id), ...events.map((e) => e.league_id)],
    ['sport_id'],
    (row) => Number(row.sport_id),
  );
  const teamIds = await known(
    'teams',
    ids(teams),
    [
      ...players.map((p) => p.team_id),
      ...events.flatMap((e) => [e.home_team_id, e.away_team_id]),
      ...flows.map((f) => (f.focus_entity_type === 'team' ? f.focus_entity_id : undefined)),
      ...flows.flatMap((f) => (f.hit_history ?? []).map((game) => game.opponent_team_id)),
    ],
    [],
    present,
  );
  const playerIds = await known(
    'players',
    ids(players),
    [...flows.map((f) => (f.focus_entity_type === 'player' ? f.focus_entity_id : undefined)), ...odds.map((o) => o.player_id)],
    [],
    present,
  );
  const periodSports = await known('event_periods', new Map(event_periods.map((p) => [p.id, p.sport_id])), odds.map((o) => o.event_period_id), ['sport_id'], (row) =>
    Number(row.sport_id),
  );
  const operatorIds = await known('operators', ids(dataset.operators), odds.map((o) => o.operator_id), [], present);
  const categoryKeys = await known(
    'betting_market_categories',
    new Map(betting_market_categories.map((c) => [c.id, c.key])),
    betting_markets.map((m) => m.category_id),
    ['key'],
    (row) => String(row.key),
  );
  const marketRules = await known(
    'betting_markets',
    new Map(betting_markets.map((m) => [m.id, m.settlement?.rule ?? null])),
    [...odds.map((o) => o.betting_market_id), ...flows.map((f) => f.betting_market_id)],
    ['settlement_rule'],
    (row) => (row.settlement_rule === null ? null : String(row.settlement_rule)),
  );

  const countryIds = await known('countries', ids(dataset.countries), regions.map((r) => r.country_id), [], present);
  const dimensionIds = await known('tag_dimensions', ids(dataset.tag_dimensions), tagTypes.map((t) => t.dimension_id), [], present);
  const tagTypeIds = await known('tag_types', ids(tagTypes), flows.flatMap((f) => f.tag_type_ids ?? []), [], present);
  const catalogue = { sportIds, sportOfLeague, teamIds, playerIds, periodSports, operatorIds, categoryKeys, marketRules, countryIds, dimensionIds, tagTypeIds };
  return { ...catalogue, ...(await knownFacts(dataset, known, sportOfLeague)) };
}

/** The league and sport of the events the odds and flows name, and the event of each parlay leg. */
async function knownFacts(dataset: Dataset, known: Known, sportOfLeague: ReadonlyMap<number, number>): Promise<Pick<KnownRecords, 'eventFacts' | 'legFacts'>> {
  const { events = [], odds = [], flows = [] } = dataset;
  const ownEvents = new Map<number, EventFacts>();
  for (const e of events) ownEvents.set(e.id, { league_id: e.league_id, sport_id: sportOfLeague.get(e.league_id) ?? 0 });
  const eventFacts = await known('events', ownEvents, [...odds.map((o) => o.event_id), ...flows.map((f) => f.event_id)], ['league_id', 'sport_id'], (row) => ({
    league_id: Number(row.league_id),
    sport_id: Number(row.sport_id),
  }));
  const legFacts = await known(
    'flows',
    new Map<number, LegFacts>(flows.map((f) => [f.id, { event_id: f.event_id, parlay: (f.leg_ids ?? []).length > 0 }])),
    flows.flatMap((f) => f.leg_ids ?? []),
    ['event_id', 'bet_type'],
    (row) => ({ event_id: Number(row.event_id), parlay: row.bet_type === 'parlay' }),
  );
  return { eventFacts, legFacts };
}

/** Adds a problem when `id` names no record of `known`. */
type Ref = (field: string, id: number | null | undefined, known: Map<number, unknown>, what: string) => void;

function referenceCheck(problems: Problems): Ref {
  return (field, id, known, what) => {
    if (id !== null && id !== undefined && !known.has(id)) problems.add(field, 'reference', `names no ${what} (id ${id}) in the dataset or the database`);
  };
}

/** The references of leagues, teams, players, markets, periods, regions and tag types. */
function checkCatalogueReferences(dataset: Dataset, known: KnownRecords, ref: Ref, problems: Problems): void {
  const { leagues = [], teams = [], players = [], betting_markets = [], event_periods = [] } = dataset;
  const { subnational_regions: regions = [], tag_types: tagTypes = [] } = dataset;
  const { sportIds, sportOfLeague, teamIds, categoryKeys } = known;
  leagues.forEach((l, i) => ref(`leagues[${i}].sport_id`, l.sport_id, sportIds, 'sport'));
  teams.forEach((t, i) => ref(`teams[${i}].league_id`, t.league_id, sportOfLeague, 'league'));
  players.forEach((p, i) => ref(`players[${i}].team_id`, p.team_id, teamIds, 'team'));
  betting_markets.forEach((m, i) => {
    ref(`betting_markets[${i}].sport_id`, m.sport_id, sportIds, 'sport');
    ref(`betting_markets[${i}].category_id`, m.category_id, categoryKeys, 'betting market category');
    const key = m.category_id === null || m.category_id === undefined ? undefined : categoryKeys.get(m.category_id);
    if (key !== undefined && m.category !== undefined && m.category.toLowerCase() !== key.toLowerCase()) {
      problems.add(`betting_markets[${i}].category`, 'const', `"${m.category}" is not the key of category ${m.category_id} ("${key}")`);
    }
  });
  event_periods.forEach((p, i) => ref(`event_periods[${i}].sport_id`, p.sport_id, sportIds, 'sport'));
  regions.forEach((r, i) => ref(`subnational_regions[${i}].country_id`, r.country_id, known.countryIds, 'country'));
  tagTypes.forEach((t, i) => ref(`tag_types[${i}].dimension_id`, t.dimension_id, known.dimensionIds, 'tag dimension'));
}

function checkEventReferences(events: NonNullable<Dataset['events']>, known: KnownRecords, ref: Ref): void {
  events.forEach((e, i) => {
    ref(`events[${i}].league_id`, e.league_id, known.sportOfLeague, 'league');
    ref(`events[${i}].home_team_id`, e.home_team_id, known.teamIds, 'team');
    ref(`events[${i}].away_team_id`, e.away_team_id, known.teamIds, 'team');
  });
}

function checkOddsReferences(odds: NonNullable<Dataset['odds']>, known: KnownRecords, ref: Ref, problems: Problems): void {
  const { eventFacts, periodSports } = known;
  odds.forEach((o, i) => {
    ref(`odds[${i}].event_id`, o.event_id, eventFacts, 'event');
    ref(`odds[${i}].operator_id`, o.operator_id, known.operatorIds, 'operator');
    ref(`odds[${i}].betting_market_id`, o.betting_market_id, known.marketRules, 'betting market');
    ref(`odds[${i}].player_id`, o.player_id, known.playerIds, 'player');
    ref(`odds[${i}].event_period_id`, o.event_period_id, periodSports, 'event period');
    // A period is one sport's (a soccer half is not a basketball quarter).
    const periodSport = o.event_period_id === null || o.event_period_id === undefined ? undefined : periodSports.get(o.event_period_id);
    const eventSport = eventFacts.get(o.event_id)?.sport_id;
    if (periodSport !== undefined && eventSport !== undefined && periodSport !== eventSport) {
      problems.add(`odds[${i}].event_period_id`, 'same_sport', `names event period ${o.event_period_id} of another sport than the event's`);
    }
  });
}

function checkFlowReferences(flows: NonNullable<Dataset['flows']>, known: KnownRecords, ref: Ref, problems: Problems): void {
  const { teamIds, playerIds } = known;
  flows.forEach((f, i) => {
    ref(`flows[${i}].event_id`, f.event_id, known.eventFacts, 'event');
    if (f.focus_entity_type === 'team') ref(`flows[${i}].focus_entity_id`, f.focus_entity_id, teamIds, 'team');
    if (f.focus_entity_type === 'player') ref(`flows[${i}].focus_entity_id`, f.focus_entity_id, playerIds, 'player');
    ref(`flows[${i}].betting_market_id`, f.betting_market_id, known.marketRules, 'betting market');
    (f.tag_type_ids ?? []).forEach((tagId, j) => ref(`flows[${i}].tag_type_ids[${j}]`, tagId, known.tagTypeIds, 'tag type'));
    (f.hit_history ?? []).forEach((game, j) => ref(`flows[${i}].hit_history[${j}].opponent_team_id`, game.opponent_team_id, teamIds, 'team'));
    (f.leg_ids ?? []).forEach((legId, j) => {
      const field = `flows[${i}].leg_ids[${j}]`;
      const leg = known.legFacts.get(legId);
      if (!leg) problems.add(field, 'reference', `names no flow (id ${legId}) in the dataset or the database`);
      else if (leg.event_id !== f.event_id) problems.add(field, 'same_event', `names flow ${legId} of another event: a parlay's legs are flows of its own event`);
      else if (leg.parlay) problems.add(field, 'single', `names flow ${legId}, itself a parlay: legs are single flows`);
    });
  });
}

/**
 * A market names its category by id, or by key as files did before categories were records
 * (decision 0113): the key links it to the category with that key, of the dataset first, then
 * stored (the lowest id when several share it), and to none when there is no such category.
 */
async function categoriesOfMarkets(
  dataset: Dataset,
  keyOfId: Map<number, string>,
  repo: ImportRepository,
  options: { replace: boolean },
): Promise<Map<number, MarketCategory>> {
  const markets = dataset.betting_markets ?? [];
  const idOfKey = new Map<string, number>();
  const link = (key: string, id: number) => {
    const k = key.toLowerCase();
    if ((idOfKey.get(k) ?? Infinity) > id) idOfKey.set(k, id);
  };
  for (const category of dataset.betting_market_categories ?? []) link(category.key, category.id);
  const byText = markets.flatMap((m) => (m.category_id === null || m.category_id === undefined) && m.category !== undefined ? [m.category] : []);
  const unlinked = new Set(byText.map((key) => key.toLowerCase()).filter((key) => !idOfKey.has(key)));
  if (!options.replace && unlinked.size > 0) {
    for (const row of await repo.withKeys('betting_market_categories', unlinked)) if (unlinked.has(row.key.toLowerCase())) link(row.key, row.id);
  }
  return new Map(
    markets.map((m) => {
      const id = m.category_id ?? undefined;
      if (id !== undefined) return [m.id, { id, key: keyOfId.get(id) ?? m.category ?? '' }];
      const key = m.category ?? '';
      return [m.id, { id: idOfKey.get(key.toLowerCase()) ?? null, key }];
    }),
  );
}

/** Stored leagues and events whose sport or league this dataset changes. */
async function moved(dataset: Dataset, repo: ImportRepository, options: { replace: boolean }): Promise<Pick<Resolved, 'movedLeagueIds' | 'movedEventIds'>> {
  if (options.replace) return { movedLeagueIds: [], movedEventIds: [] };
  const leagues = new Map((dataset.leagues ?? []).map((l) => [l.id, l.sport_id]));
  const events = new Map((dataset.events ?? []).map((e) => [e.id, e.league_id]));
  const movedLeagueIds = leagues.size === 0 ? [] : (await repo.existing('leagues', leagues.keys(), ['sport_id']))
    .filter((row) => leagues.get(Number(row.id)) !== Number(row.sport_id))
    .map((row) => Number(row.id));
  const movedEventIds = events.size === 0 ? [] : (await repo.existing('events', events.keys(), ['league_id']))
    .filter((row) => events.get(Number(row.id)) !== Number(row.league_id))
    .map((row) => Number(row.id));
  return { movedLeagueIds, movedEventIds };
}
