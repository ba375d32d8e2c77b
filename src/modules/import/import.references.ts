import { Problems } from './import.checks.js';
import { type CompetitionState, competitionStateOf, EVENT_STATE_COLUMNS, type EventState, eventStateOf } from './import.event-changes.js';
import { type KnownRecords, knownIn, knownRecords } from './import.known-records.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';
import { checkOddsPositions } from './import.positions.js';
import { checkCompetitions, type CompetitionFacts } from './import.competitions.js';
import { checkResults } from './import.results.js';
import { checkTagTree } from './import.taxonomy.js';

/**
 * Every reference of a dataset must name a record of the same dataset or one already stored.
 * Ids are checked against in-memory sets: the dataset's own ids, plus the stored rows among
 * the ids it references but does not carry (fetched once per table, in chunks) — so a
 * million odds cost a million set lookups, not a million queries.
 */

export interface Resolved {
  /** The sport of every league the dataset's teams and events use (dataset first, then stored). */
  sportOfLeague: Map<number, number>;
  /** League and sport of every event the dataset's odds and flows use. */
  eventFacts: KnownRecords['eventFacts'];
  /** Stored leagues the dataset moves to another sport: their events and flows are refreshed. */
  movedLeagueIds: number[];
  /** Stored events the dataset moves to another league: their flows are refreshed. */
  movedEventIds: number[];
  /** What the stored events the dataset carries were before it (none in a replace): their changes are told to webhooks. */
  storedEvents: Map<number, EventState>;
  /** What the stored competitions the dataset carries were before it (none in a replace), for the same webhooks. */
  storedCompetitions: Map<number, CompetitionState>;
  /** The category of every market of the dataset: its record (null when its text names none) and key. */
  marketCategories: Map<number, MarketCategory>;
  /** The competitions' participants: their events and names. */
  competitions: CompetitionFacts;
}

export interface MarketCategory {
  id: number | null;
  key: string;
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
  const competitions = await checkCompetitions(dataset, repo, options, known, problems);
  problems.throwIfAny();

  const marketCategories = await categoriesOfMarkets(dataset, known.categoryKeys, repo, options);
  return { sportOfLeague: known.sportOfLeague, eventFacts: known.eventFacts, marketCategories, competitions, ...(await moved(dataset, repo, options)) };
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
    // A flow is a matchup's: it names its event's home and away team, which a competition has not.
    if (known.eventFacts.get(f.event_id)?.kind === 'competition') problems.add(`flows[${i}].event_id`, 'kind', `event ${f.event_id} is a competition: a flow is of a matchup`);
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

/** Stored leagues and events whose sport or league this dataset changes, and the stored events and competitions it carries as they were. */
async function moved(
  dataset: Dataset,
  repo: ImportRepository,
  options: { replace: boolean },
): Promise<Pick<Resolved, 'movedLeagueIds' | 'movedEventIds' | 'storedEvents' | 'storedCompetitions'>> {
  if (options.replace) return { movedLeagueIds: [], movedEventIds: [], storedEvents: new Map(), storedCompetitions: new Map() };
  const leagues = new Map((dataset.leagues ?? []).map((l) => [l.id, l.sport_id]));
  const events = new Map((dataset.events ?? []).map((e) => [e.id, e.league_id]));
  const movedLeagueIds = leagues.size === 0 ? [] : (await repo.existing('leagues', leagues.keys(), ['sport_id']))
    .filter((row) => leagues.get(Number(row.id)) !== Number(row.sport_id))
    .map((row) => Number(row.id));
  // One read of the stored events serves both: the league they move from, and what a webhook tells changed.
  const storedRows = events.size === 0 ? [] : await repo.existing('events', events.keys(), ['league_id', ...EVENT_STATE_COLUMNS]);
  const movedEventIds = storedRows.filter((row) => events.get(Number(row.id)) !== Number(row.league_id)).map((row) => Number(row.id));
  return {
    movedLeagueIds,
    movedEventIds,
    storedEvents: new Map(storedRows.map((row) => [Number(row.id), eventStateOf(row)])),
    storedCompetitions: await storedCompetitions(dataset, repo),
  };
}

/** The stored competitions among the dataset's, as they were: two reads, only for a dataset that carries competitions. */
async function storedCompetitions(dataset: Dataset, repo: ImportRepository): Promise<Map<number, CompetitionState>> {
  const ids = (dataset.competitions ?? []).map((c) => c.id);
  if (ids.length === 0) return new Map();
  const events = await repo.existing('events', ids, ['status', 'start_time']);
  if (events.length === 0) return new Map();
  const ends = new Map((await repo.existing('competitions', events.map((row) => Number(row.id)), ['end_time'])).map((row) => [Number(row.id), row]));
  return new Map(events.map((row) => [Number(row.id), competitionStateOf(row, ends.get(Number(row.id)))]));
}
