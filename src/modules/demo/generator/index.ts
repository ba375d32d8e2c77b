import type { Dataset, DatasetRecords } from '../../import/index.js';
import { countries, eventPeriods, marketCategories, marketPositions } from './catalogue.js';
import { buildEvents, type EventModel, isAhead } from './events.js';
import { buildFlows, type PastRecord } from './flows.js';
import { addHitHistories } from './hit-history.js';
import { buildMoves, movingBoards, openingTimes } from './moves.js';
import { buildOdds } from './odds.js';
import { createRandom, type Random } from './random.js';
import { buildWorld, type World } from './references.js';
import { type DemoCompetitions, generateCompetitions } from './competitions.js';
import { playerStatistics, resultsOf, settlementOf } from './results.js';
import { buildSchedule } from './schedule.js';
import { DAY_MS } from '../../../platform/time.js';
import { subnationalRegions, tagDimensions, tagTypes, withTags } from './taxonomy.js';

/**
 * Scale 1: 100,000 odds on the days ahead and 10,000 on the days past, 20,000 flows (600 teams in
 * 30 leagues). The number of events is what the leagues' schedules hold: about 1,800 ahead.
 */
export const SCALE_1 = { odds: 100_000, pastOdds: 10_000, flows: 20_000 } as const;
/** Days of events: today (UTC) and the 13 after it; and the 7 before it, played. */
export const DAYS_AHEAD = 14;
export const DAYS_PAST = 7;
export const DEFAULT_SEED = 20_240_601;
/** Mixed into the seed for the hit histories' own stream. */
const HIT_HISTORY_SEED = 0x5eed_6a7f;
/** Mixed into the seed for the price moves' own stream. */
const MOVES_SEED = 0x9e3779b9;
/** Mixed into the seed for the results' own stream (period scores, player statistics). */
const RESULTS_SEED = 0x7e5c_0a3d;
/** Mixed into the seed for the opening times' own stream: how many it draws depends on the hour. */
const OPENING_SEED = 0x0be7_1a5d;
/** Mixed into the seed for the competitions' own stream: the matchups are the same with or without them. */
const COMPETITIONS_SEED = 0x0c0a_7e57;

export interface DemoOptions {
  /** Multiplies teams (and their players, so their games), odds and flows; sports, leagues, operators and markets stay. */
  scale?: number;
  seed?: number;
  /** The moment the dataset is made (epoch ms): the days are counted from its UTC day, and statuses are as of it. */
  now: number;
}

export interface DemoData {
  /** Everything, with each odds row at its opening price. */
  dataset: Required<DatasetRecords>;
  /** Odds datasets imported after it, in order: each records one price change per row it moves. */
  moves: Dataset[];
  /** The competitions (tournaments, races, futures), made when asked: a dataset of their own after the matchups'. */
  competitions(): DemoCompetitions;
}

/** The demo dataset in the import format (see generateDemo). */
export function generateDemoDataset(options: DemoOptions): Required<DatasetRecords> {
  return generateDemo(options).dataset;
}

/**
 * The demo data: deterministic for a seed, a scale and `now`. The leagues' schedules run over the
 * 7 UTC days before the day of `now` and the 14 from it; events started by `now` are final or live
 * with a score, the others scheduled (a few postponed or cancelled). Events from the day of `now`
 * on have ids from 1, by start time, the earlier ones follow; their odds likewise.
 */
export function generateDemo(options: DemoOptions): DemoData {
  const scale = options.scale ?? 1;
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error('scale must be a positive number');
  const { now } = options;
  const seed = options.seed ?? DEFAULT_SEED;
  const random = createRandom(seed);
  const world = buildWorld(random, scale);
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const fixtures = buildSchedule(random, world, today - DAYS_PAST * DAY_MS, DAYS_PAST + DAYS_AHEAD);
  const ahead = buildEvents(random, fixtures.filter((f) => f.start >= today), now, 1);
  const past = buildEvents(random, fixtures.filter((f) => f.start < today), now, ahead.length + 1);
  const openedAt = openingTimes(createRandom(seed ^ OPENING_SEED), now);
  const moving = movingBoards(now);
  const aheadOdds = buildOdds(random, world, ahead, Math.round(SCALE_1.odds * scale), 1, openedAt, moving);
  const pastOdds = buildOdds(random, world, past, Math.round(SCALE_1.pastOdds * scale), aheadOdds.rows.length + 1, openedAt, moving);
  const record = pastRecord([...past, ...ahead], [...pastOdds.rows, ...aheadOdds.rows]);
  const flows = buildFlows(random, ahead.filter((e) => isAhead(e, now)), Math.round(SCALE_1.flows * scale), record);
  // Streams of their own: the data above is the same with or without them.
  addHitHistories(createRandom(seed ^ HIT_HISTORY_SEED), world, ahead, flows, now);
  const moves = buildMoves(createRandom(seed ^ MOVES_SEED), [...aheadOdds.quotes, ...pastOdds.quotes], now);
  const dataset = datasetOf(world, [...ahead, ...past], [...aheadOdds.rows, ...pastOdds.rows], flows);
  addResults(createRandom(seed ^ RESULTS_SEED), dataset, [...ahead, ...past]);
  return { dataset, moves, competitions: () => generateCompetitions(createRandom(seed ^ COMPETITIONS_SEED), world, now) };
}

function datasetOf(world: World, events: readonly EventModel[], odds: NonNullable<Dataset['odds']>, flows: NonNullable<Dataset['flows']>): Required<DatasetRecords> {
  const { categories, categoryIdOf } = marketCategories();
  const countryRecords = countries();
  return {
    sports: world.sports.map((s) => ({ id: s.id, key: s.def.key, name: s.def.name })),
    countries: countryRecords,
    leagues: world.leagues.map((l) => ({
      id: l.id,
      key: l.def.key,
      name: l.def.name,
      sport_id: l.sport.id,
      country_key: l.def.country?.key ?? null,
      country_name: l.def.country?.name ?? null,
      is_popular: l.def.popular === true,
    })),
    teams: world.teams.map((t) => ({ id: t.id, key: t.key, name: t.name, abbreviation: t.abbreviation, location: t.location, league_id: t.league.id })),
    players: world.players.map((p) => ({ id: p.id, key: p.key, name: p.name, position: p.position, team_id: p.team.id })),
    operators: world.operators.map((o, i) => ({ id: o.id, key: o.key, name: o.name, ...deepLinkTemplates(o.key, i) })),
    betting_market_categories: categories,
    betting_market_positions: marketPositions(),
    betting_markets: world.markets.map((m) => ({
      id: m.id,
      key: m.def.key,
      name: m.def.name,
      category_id: categoryIdOf(m.def.category),
      entity_type: m.def.entity_type,
      sport_id: m.def.sport === null ? null : (world.sports.find((s) => s.def.key === m.def.sport)?.id ?? null),
      settlement: settlementOf(m.def),
    })),
    event_periods: eventPeriods(world.sports),
    player_statistics: playerStatistics(world.sports),
    subnational_regions: subnationalRegions(countryRecords),
    tag_dimensions: tagDimensions(),
    tag_types: tagTypes(),
    events: events.map((e) => ({
      id: e.id,
      league_id: e.league.id,
      start_time: new Date(e.start).toISOString(),
      status: e.status,
      home_team_id: e.home.id,
      away_team_id: e.away.id,
      ...(e.score ? { home_score: e.score.home, away_score: e.score.away } : {}),
    })),
    odds,
    flows: flows.map(withTags),
  };
}

/** The final events' period scores and players' statistics, in the events' order. */
function addResults(random: Random, dataset: Required<DatasetRecords>, events: readonly EventModel[]): void {
  const periodIds = new Map(dataset.event_periods.map((p) => [`${p.sport_id}:${p.key}`, p.id]));
  events.forEach((event, i) => {
    const item = dataset.events[i];
    if (item !== undefined) Object.assign(item, resultsOf(random, event, periodIds));
  });
}

/**
 * The games a team has played, by market: final events with a score whose odds price the team's
 * side of the market, as the API's graded results will hold them (a computed trend counts these).
 */
function pastRecord(events: readonly EventModel[], odds: NonNullable<Dataset['odds']>): PastRecord {
  const priced = new Set(odds.filter((o) => o.position === 'home' || o.position === 'away').map((o) => `${o.event_id}:${o.betting_market_id}:${o.position}`));
  const played = events.filter((e) => e.status === 'final' && e.score !== undefined).sort((a, b) => a.start - b.start || a.id - b.id);
  return (team, market, before) =>
    played.flatMap((e) => {
      const side = e.home === team ? 'home' : e.away === team ? 'away' : undefined;
      if (side === undefined || e.start >= before || e.score === undefined || !priced.has(`${e.id}:${market.id}:${side}`)) return [];
      const [own, other] = side === 'home' ? [e.score.home, e.score.away] : [e.score.away, e.score.home];
      return [{ start: e.start, opponent: side === 'home' ? e.away : e.home, won: own > other }];
    });
}

/**
 * Most books link to their bet slip, the apps through https universal links; the last two do not,
 * as some real books do not, so that a client meets both. Only placeholders every price has.
 */
function deepLinkTemplates(key: string, index: number): Record<string, string> {
  if (index >= 6) return {};
  const path = '{event_id}/{betting_market_id}/{position}';
  return {
    bet_web_deep_link_template: `https://www.${key}.example/betslip?event={event_id}&market={betting_market_id}&pick={position}`,
    bet_ios_deep_link_template: `https://apps.${key}.example/ios/bet/${path}`,
    bet_android_deep_link_template: `https://apps.${key}.example/android/bet/${path}`,
  };
}
