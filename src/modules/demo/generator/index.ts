import type { Dataset } from '../../import/index.js';
import { countries, eventPeriods, marketCategories, marketPositions } from './catalogue.js';
import { buildEvents, type EventModel } from './events.js';
import { buildFlows } from './flows.js';
import { addHitHistories } from './hit-history.js';
import { buildOdds } from './odds.js';
import { buildMoves, buildPastEvents, buildPastOdds, PAST_SCALE_1 } from './past.js';
import { createRandom } from './random.js';
import { buildWorld, type World } from './references.js';
import { subnationalRegions, tagDimensions, tagTypes, withTags } from './taxonomy.js';

/** Scale 1: 2,000 events, 100,000 odds, 20,000 flows (600 teams in 30 leagues); and the past (past.ts). */
export const SCALE_1 = { events: 2_000, odds: 100_000, flows: 20_000 } as const;
export const DEFAULT_SEED = 20_240_601;
/** Mixed into the seed for the hit histories' own stream. */
const HIT_HISTORY_SEED = 0x5eed_6a7f;
/** The past has a random stream of its own (past.ts): the upcoming part stays as it was. */
const PAST_STREAM = 0x9e3779b9;

export interface DemoOptions {
  /** Multiplies teams (and their players), events, odds and flows; sports, leagues, operators and markets stay. */
  scale?: number;
  seed?: number;
  /** Events start on the 14 UTC days from the one of this instant (epoch ms), earlier that day included. */
  now: number;
}

export interface DemoData {
  /** Everything, with each odds row at its opening price. */
  dataset: Required<Dataset>;
  /** Odds datasets imported after it, in order: each records one price change per row it moves. */
  moves: Dataset[];
}

/** The demo dataset in the import format (see generateDemo). */
export function generateDemoDataset(options: DemoOptions): Required<Dataset> {
  return generateDemo(options).dataset;
}

/**
 * The demo data: deterministic for a seed, a scale and `now` (event times are relative to its
 * day, so today and the next 13 days always have events, and the 14 days before it finished ones).
 * Upcoming events and odds have ids from 1, the past ones follow them.
 */
export function generateDemo(options: DemoOptions): DemoData {
  const scale = options.scale ?? 1;
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error('scale must be a positive number');
  const seed = options.seed ?? DEFAULT_SEED;
  const random = createRandom(seed);
  const world = buildWorld(random, scale);
  const upcoming = buildEvents(random, world, Math.round(SCALE_1.events * scale), options.now);
  const upcomingOdds = buildOdds(random, world, upcoming, Math.round(SCALE_1.odds * scale), options.now);
  const flows = buildFlows(random, upcoming, Math.round(SCALE_1.flows * scale));
  // Streams of their own: the data above is the same with or without the histories and the past.
  addHitHistories(createRandom(seed ^ HIT_HISTORY_SEED), world, upcoming, flows);
  const pastRandom = createRandom(seed ^ PAST_STREAM);
  const past = buildPastEvents(pastRandom, world, Math.round(PAST_SCALE_1.events * scale), options.now, upcoming.length + 1);
  const pastOdds = buildPastOdds(pastRandom, world, past, Math.round(PAST_SCALE_1.odds * scale), options.now, upcomingOdds.length + 1);
  const events = [...upcoming, ...past];
  const odds = [...upcomingOdds, ...pastOdds];
  return { dataset: datasetOf(world, events, odds, flows), moves: buildMoves(pastRandom, pastOdds, past, upcomingOdds, options.now) };
}

function datasetOf(world: World, events: readonly EventModel[], odds: NonNullable<Dataset['odds']>, flows: NonNullable<Dataset['flows']>): Required<Dataset> {
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
    })),
    teams: world.teams.map((t) => ({ id: t.id, key: t.key, name: t.name, abbreviation: t.abbreviation, location: t.location, league_id: t.league.id })),
    players: world.players.map((p) => ({ id: p.id, key: p.key, name: p.name, position: p.position, team_id: p.team.id })),
    operators: world.operators.map((o) => ({ id: o.id, key: o.key, name: o.name })),
    betting_market_categories: categories,
    betting_market_positions: marketPositions(),
    betting_markets: world.markets.map((m) => ({
      id: m.id,
      key: m.def.key,
      name: m.def.name,
      category_id: categoryIdOf(m.def.category),
      entity_type: m.def.entity_type,
      sport_id: m.def.sport === null ? null : (world.sports.find((s) => s.def.key === m.def.sport)?.id ?? null),
    })),
    event_periods: eventPeriods(world.sports),
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
