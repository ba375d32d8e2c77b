import type { Dataset } from '../../import/index.js';
import { countries, eventPeriods, marketCategories, marketPositions } from './catalogue.js';
import { buildEvents } from './events.js';
import { buildFlows } from './flows.js';
import { addHitHistories } from './hit-history.js';
import { buildOdds } from './odds.js';
import { createRandom } from './random.js';
import { buildWorld } from './references.js';

/** Scale 1: 2,000 events, 100,000 odds, 20,000 flows (600 teams in 30 leagues). */
export const SCALE_1 = { events: 2_000, odds: 100_000, flows: 20_000 } as const;
export const DEFAULT_SEED = 20_240_601;
/** Mixed into the seed for the hit histories' own stream. */
const HIT_HISTORY_SEED = 0x5eed_6a7f;

export interface DemoOptions {
  /** Multiplies teams (and their players), events, odds and flows; sports, leagues, operators and markets stay. */
  scale?: number;
  seed?: number;
  /** Events start on the 14 UTC days from the one of this instant (epoch ms), earlier that day included. */
  now: number;
}

/**
 * The demo dataset in the import format: deterministic for a seed, a scale and `now`
 * (event times are relative to its day, so today and the next 13 days always have events).
 */
export function generateDemoDataset(options: DemoOptions): Required<Dataset> {
  const scale = options.scale ?? 1;
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error('scale must be a positive number');
  const random = createRandom(options.seed ?? DEFAULT_SEED);
  const world = buildWorld(random, scale);
  const events = buildEvents(random, world, Math.round(SCALE_1.events * scale), options.now);
  const odds = buildOdds(random, world, events, Math.round(SCALE_1.odds * scale), options.now);
  const flows = buildFlows(random, events, Math.round(SCALE_1.flows * scale));
  // A stream of their own: the data above is the same with or without the histories.
  addHitHistories(createRandom((options.seed ?? DEFAULT_SEED) ^ HIT_HISTORY_SEED), world, events, flows);
  const { categories, categoryIdOf } = marketCategories();

  return {
    sports: world.sports.map((s) => ({ id: s.id, key: s.def.key, name: s.def.name })),
    countries: countries(),
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
    events: events.map((e) => ({
      id: e.id,
      league_id: e.league.id,
      start_time: new Date(e.start).toISOString(),
      status: e.status,
      home_team_id: e.home.id,
      away_team_id: e.away.id,
    })),
    odds,
    flows,
  };
}
