import type { EventStatus } from '../../../shared/event-status.js';
import { DAY_MS } from '../../../platform/time.js';
import type { Dataset } from '../../import/index.js';
import { competitionOdds, movedQuote, OUTRIGHT_MARKETS, type OutrightQuote } from './competition-markets.js';
import { performance } from './competition-pricing.js';
import { PEOPLE } from './names.js';
import { type Random, slug } from './random.js';
import type { World } from './references.js';

/**
 * The demo's competitions (docs/data.md#the-demo-dataset): a golf tournament of 150 players and a
 * 20-driver race each played last week and coming up this week, and a season-winner and a
 * top-scorer futures market for each league, dated from the demo's clock like its matchups. A
 * dataset of its own in the native format, beside the matchups' (which it only adds to).
 */

export interface Participant {
  id: number;
  name: string;
  teamId?: number;
  playerId?: number;
  /** Hidden: what its chances and its finish come from. */
  strength: number;
}

export interface CompetitionModel {
  id: number;
  leagueId: number;
  name: string;
  type: 'tournament' | 'race' | 'futures';
  participantType: 'team' | 'player';
  start: number;
  end: number;
  status: EventStatus;
  /** When its books opened their markets (epoch ms). */
  openedAt: number;
  field: Participant[];
  /** The 2- and 3-way matchups the books sell, as indexes into the field. */
  matchups: number[][];
}

/** Ids far above the matchups' at any scale: the competitions, their participants, their players and teams, their odds. */
export const COMPETITION_IDS = 1_000_000_000;
const GOLFERS = 150;
const CONSTRUCTORS = ['Aurora Racing', 'Vanta GP', 'Meridian Motorsport', 'Kestrel F1 Team', 'Solano Racing', 'Brightwater GP', 'Orion Works', 'Halden Racing', 'Tessera Motorsport', 'Corvid GP'];
const COURSES = ['Harbour Links', 'Northfield', 'Cedar Ridge', 'Pine Valley Bay', 'Kingsmead'];
const CIRCUITS = ['Coastal', 'Valley', 'Lakeside', 'Desert', 'Highland'];
/** A golf score is about par 272 for four rounds: this many strokes per unit of performance, so that players tie as often as they do. */
const STROKES_PER_UNIT = 3.5;
/** Players below this place after two rounds miss the cut (recorded as withdrawn: they did not finish). */
const CUT_PLACE = 70;
/** Hours of a tournament (Thursday morning to Sunday evening) and of a race, in ms. */
const GOLF_SPAN = 3 * DAY_MS + 12 * 3_600_000;
const RACE_SPAN = 2 * 3_600_000;
/** How far a winner market's move shifts a runner's chance, in log-odds. */
const MOVE_STEP = 0.15;

export interface DemoCompetitions {
  /** The competitions' records, with each odds row at its opening price. */
  dataset: Dataset;
  /** One price move of every winner market after it (the price history's first change). */
  moves: Dataset;
}

export function generateCompetitions(random: Random, world: World, now: number): DemoCompetitions {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const ids = { sport: world.sports.length + 1, league: world.leagues.length + 1, market: world.markets.length + 1, next: COMPETITION_IDS };
  const nextId = () => ids.next++;
  const golf = { sport: ids.sport, league: ids.league, team: nextId() };
  const racing = { sport: ids.sport + 1, league: ids.league + 1 };
  const names = uniqueNames(random);
  const golfers = Array.from({ length: GOLFERS }, () => ({ id: nextId(), name: names(), team_id: golf.team, strength: random.normal() * 0.9 }));
  const constructors = CONSTRUCTORS.map((name) => ({ id: nextId(), key: slug(name), name, league_id: racing.league, strength: random.normal() * 0.8 }));
  const drivers = constructors.flatMap((team) => [0, 1].map(() => ({ id: nextId(), name: names(), team_id: team.id, strength: team.strength * 1.5 + random.normal() * 0.4 })));
  const competitions: CompetitionModel[] = [];
  const add = (model: Omit<CompetitionModel, 'id' | 'status' | 'openedAt'>) => {
    const status: EventStatus = model.type === 'futures' || now >= model.end ? (model.type === 'futures' ? 'live' : 'final') : now >= model.start ? 'live' : 'scheduled';
    const openedAt = model.type === 'futures' ? now - 6 * 3_600_000 : Math.min(model.start - 3 * DAY_MS, now - 6 * 3_600_000);
    competitions.push({ ...model, id: nextId(), status, openedAt });
  };
  const golfField = () => golfers.map((g) => ({ id: nextId(), name: g.name, playerId: g.id, strength: g.strength + random.normal() * 0.2 }));
  const raceField = () => drivers.map((d) => ({ id: nextId(), name: d.name, playerId: d.id, strength: d.strength + random.normal() * 0.15 }));
  // Last week's tournament (Thursday to Sunday, over before today) and this week's; last Sunday's race and the next.
  const [courses, circuits] = [random.sample(COURSES, 2), random.sample(CIRCUITS, 2)];
  [weekday(today - 10 * DAY_MS, 4), weekday(today, 4)].forEach((day, i) => {
    const [start, field] = [day + 7 * 3_600_000, golfField()];
    add({ leagueId: golf.league, name: `The ${courses[i] ?? ''} Open`, type: 'tournament', participantType: 'player', start, end: start + GOLF_SPAN, field, matchups: neighbours(field, 10, 5) });
  });
  // The drivers come two by two from their constructors: the head-to-heads are between teammates.
  const teammates = CONSTRUCTORS.map((_, i) => [2 * i, 2 * i + 1]);
  [weekday(today - 7 * DAY_MS, 0), weekday(today, 0)].forEach((day, i) => {
    const start = day + 13 * 3_600_000;
    add({ leagueId: racing.league, name: `${circuits[i] ?? ''} Grand Prix`, type: 'race', participantType: 'player', start, end: start + RACE_SPAN, field: raceField(), matchups: [...teammates, [0, 2, 4], [6, 8, 10]] });
  });
  const season = { start: today - 90 * DAY_MS, end: today + 120 * DAY_MS };
  for (const league of world.leagues) {
    const teams = league.teams.map((t) => ({ id: nextId(), name: t.name, teamId: t.id, strength: t.rating * 3 }));
    add({ leagueId: league.id, name: `${league.def.name} ${new Date(season.end).getUTCFullYear()} winner`, type: 'futures', participantType: 'team', ...season, field: teams, matchups: [] });
    if (league.sport.def.individual) continue;
    const scorers = random.sample(league.teams.flatMap((t) => t.players.filter((p) => p.position !== null && SCORERS.has(p.position))), 30);
    const field = scorers.map((p) => ({ id: nextId(), name: p.name, playerId: p.id, strength: p.team.rating * 1.5 + random.normal() * 0.7 }));
    add({ leagueId: league.id, name: `${league.def.name} ${new Date(season.end).getUTCFullYear()} top scorer`, type: 'futures', participantType: 'player', ...season, field, matchups: [] });
  }
  const marketIds = new Map(OUTRIGHT_MARKETS.map((m, i) => [m.key, ids.market + i]));
  const markets = { of: (key: (typeof OUTRIGHT_MARKETS)[number]['key']) => marketIds.get(key) ?? 0 };
  const odds: NonNullable<Dataset['odds']> = [];
  const moves: NonNullable<Dataset['price_updates']> = [];
  for (const competition of competitions) {
    const made = competitionOdds(random, competition, world.operators, markets, nextIdAfter(odds));
    odds.push(...made.rows);
    const movedAt = competition.status === 'final' ? competition.start - DAY_MS : (competition.openedAt + Math.min(now, competition.start)) / 2;
    for (const quote of made.winners) moves.push(...movedQuote(random, quote, MOVE_STEP, Math.max(competition.openedAt + 60_000, movedAt)));
  }
  const dataset: Dataset = {
    ...referencesOf(golf, racing, [...golfers, ...drivers], constructors, markets),
    competitions: competitions.map((c) => ({
      id: c.id,
      league_id: c.leagueId,
      name: c.name,
      type: c.type,
      participant_type: c.participantType,
      start_time: new Date(c.start).toISOString(),
      end_time: new Date(c.end).toISOString(),
      status: c.status,
    })),
    competition_participants: competitions.flatMap((c) => {
      const results = c.status === 'final' ? finishes(random, c) : undefined;
      return c.field.map((p, i) => ({
        id: p.id,
        competition_id: c.id,
        ...(p.teamId !== undefined ? { team_id: p.teamId } : { player_id: p.playerId ?? null }),
        ...(results ? { result: results[i] ?? null } : {}),
      }));
    }),
    odds,
  };
  return { dataset, moves: { price_updates: moves } };
}

/** The sports, leagues, teams, players and markets the demo's tournaments and races bring (the futures are the leagues' own). */
function referencesOf(
  golf: { sport: number; league: number; team: number },
  racing: { sport: number; league: number },
  players: ReadonlyArray<{ id: number; name: string; team_id: number }>,
  constructors: ReadonlyArray<{ id: number; key: string; name: string; league_id: number; strength: number }>,
  markets: { of: (key: (typeof OUTRIGHT_MARKETS)[number]['key']) => number },
): Dataset {
  const categoryId = 1_000;
  return {
    sports: [
      { id: golf.sport, key: 'golf', name: 'Golf' },
      { id: racing.sport, key: 'motor-racing', name: 'Motor Racing' },
    ],
    leagues: [
      { id: golf.league, key: 'world-golf-tour', name: 'World Golf Tour', sport_id: golf.sport, country_key: null, country_name: null, is_popular: false },
      { id: racing.league, key: 'grand-prix-championship', name: 'Grand Prix Championship', sport_id: racing.sport, country_key: null, country_name: null, is_popular: false },
    ],
    teams: [{ id: golf.team, key: 'world-golf-tour-field', name: 'World Golf Tour field', league_id: golf.league }, ...constructors.map(({ strength: _, ...team }) => team)],
    players: players.map((p) => ({ id: p.id, key: slug(p.name), name: p.name, position: null, team_id: p.team_id })),
    betting_market_categories: [{ id: categoryId, key: 'outrights', name: 'Outrights' }],
    betting_markets: OUTRIGHT_MARKETS.map((m) => ({ id: markets.of(m.key), key: m.key, name: m.name, category_id: categoryId, entity_type: m.entity_type, sport_id: null, settlement: { rule: m.rule } })),
  };
}

/** The positions that score: a league's top scorer is one of them. */
const SCORERS = new Set(['FW', 'MF', 'PG', 'SG', 'SF', 'PF', 'C', 'RB', 'WR', 'TE', '1B', '2B', '3B', 'SS', 'LF', 'CF', 'RF', 'LW', 'RW']);

const nextIdAfter = (odds: NonNullable<Dataset['odds']>) => (odds.at(-1)?.id ?? COMPETITION_IDS) + 1;

/** The first UTC day at or after `from` that is weekday `day` (0 Sunday … 6 Saturday). */
function weekday(from: number, day: number): number {
  return from + (((day - new Date(from).getUTCDay()) % 7) + 7) % 7 * DAY_MS;
}

/** `pairs` 2-way groups of the strongest, neighbours in strength (a close matchup is what a book sells), then `triples` 3-way groups of the next. */
function neighbours(field: readonly Participant[], pairs: number, triples: number): number[][] {
  const ranked = field.map((_, i) => i).sort((a, b) => (field[b]?.strength ?? 0) - (field[a]?.strength ?? 0));
  const at = (k: number) => ranked[k] ?? 0;
  const two = Array.from({ length: pairs }, (_, i) => [at(2 * i), at(2 * i + 1)]);
  const three = Array.from({ length: triples }, (_, i) => [at(2 * pairs + 3 * i), at(2 * pairs + 3 * i + 1), at(2 * pairs + 3 * i + 2)]);
  return [...two, ...three];
}

/** Names of invented players from every pool, each once. */
function uniqueNames(random: Random): () => string {
  const used = new Set<string>();
  return () => {
    for (;;) {
      const people = PEOPLE[random.pick(['anglo', 'latin', 'euro', 'asia'] as const)];
      const name = `${random.pick(people.male)} ${random.pick(people.last)}`;
      if (!used.has(slug(name))) {
        used.add(slug(name));
        return name;
      }
    }
  };
}

type Finish = { status: 'finished' | 'withdrawn' | 'disqualified' | 'non_starter'; position?: number | null };

/**
 * How a played competition ended, in its field's order. A race: one driver did not start, one
 * retired, the others finished in order. A tournament: one player did not start and one withdrew;
 * the others' four-round scores, in whole strokes, rank them with ties sharing a place (a tie for
 * first goes to a playoff), and those beyond the cut are out; the 11th always ties the 10th, so
 * that a top-10 bet settles as a dead heat.
 */
function finishes(random: Random, competition: CompetitionModel): Finish[] {
  const { field } = competition;
  const [absent, retired] = random.sample(field.map((_, i) => i).slice(Math.floor(field.length / 2)), 2);
  const perf = field.map((p) => performance(random, p.strength));
  const out: Finish[] = field.map(() => ({ status: 'finished' }));
  if (absent !== undefined) out[absent] = { status: 'non_starter', position: null };
  if (retired !== undefined) out[retired] = { status: 'withdrawn', position: null };
  const racing = field.map((_, i) => i).filter((i) => i !== absent && i !== retired);
  racing.sort((a, b) => (perf[b] ?? 0) - (perf[a] ?? 0));
  if (competition.type !== 'tournament') {
    racing.forEach((i, place) => (out[i] = { status: 'finished', position: place + 1 }));
    return out;
  }
  const strokes = racing.map((i) => Math.round(272 - (perf[i] ?? 0) * STROKES_PER_UNIT));
  strokes[10] = strokes[9] ?? 0;
  // A playoff settles a tie for first: the others share second.
  if (strokes[1] === strokes[0]) strokes[0] = (strokes[0] ?? 0) - 1;
  racing.forEach((i, k) => {
    const position = 1 + strokes.filter((s) => s < (strokes[k] ?? 0)).length;
    out[i] = position > CUT_PLACE ? { status: 'withdrawn', position: null } : { status: 'finished', position };
  });
  return out;
}
