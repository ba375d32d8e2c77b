import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRandom, type Random } from '../../src/modules/demo/generator/random.js';
import { BETBRAIN, EARLY_BETBRAIN, MODERN, SEASON_2024 } from './football-data-columns.js';
import { type Fixture, footballDataCsv } from './football-data-csv.js';

/**
 * A set of football-data.co.uk season files for the benchmark of the source import: by default 20
 * seasons (2005/06 to 2024/25) of 10 leagues, each a double round robin of made-up clubs, in the
 * column set of its season's era (no kick-off time and BetBrain's figures before 2019/20, closing
 * prices of every market after). Deterministic: one seed, the same bytes on every machine.
 *
 *   npx tsx bench/sources/football-data-set.ts OUT_DIR [--seed N] [--seasons N] [--leagues N]
 *
 * writes OUT_DIR/<yyyy>/<Div>.csv (e.g. 2425/E0.csv, as the site's mmz4281/2425/E0.csv).
 */

export const SET_LEAGUES: ReadonlyArray<{ div: string; teams: number }> = [
  { div: 'E0', teams: 20 },
  { div: 'E1', teams: 24 },
  { div: 'SP1', teams: 20 },
  { div: 'D1', teams: 18 },
  { div: 'I1', teams: 20 },
  { div: 'F1', teams: 20 },
  { div: 'N1', teams: 18 },
  { div: 'P1', teams: 18 },
  { div: 'SC0', teams: 12 },
  { div: 'B1', teams: 16 },
];

export interface SetOptions {
  seed?: number;
  seasons?: number;
  leagues?: number;
}

export interface SeasonFile {
  /** `2425/E0.csv`. */
  path: string;
  text: string;
  matches: number;
}

const LAST_SEASON = 2024;
const FIRST_PARTS = ['North', 'South', 'East', 'West', 'Port', 'Kings', 'Queens', 'Bridge', 'Castle', 'Ash', 'Oak', 'Elm', 'Stone', 'River', 'Lake', 'Brook', 'Hill', 'Mill', 'Glen', 'Fair'];
const LAST_PARTS = ['ford', 'ton', 'bury', 'field', 'wick', 'ham', 'mouth', 'stead', 'chester', 'dale', 'worth', 'by'];
const CLUB_WORDS = ['', '', ' United', ' City', ' Athletic', ' Rovers', ' Town', ' Albion'];
const REFEREES = ['A Taylor', 'M Oliver', 'S Attwell', 'C Kavanagh', 'P Tierney', 'R Jones', 'J Gillett', 'D Coote', 'T Robinson', 'S Hooper', 'J Brooks', 'A Madley'];
/** A round's kick-offs: Friday night, Saturday lunchtime, afternoon and evening, Sunday. */
const SLOTS: ReadonlyArray<{ day: number; time: string }> = [
  { day: -1, time: '20:00' },
  { day: 0, time: '12:30' },
  { day: 0, time: '17:30' },
  { day: 1, time: '14:00' },
  { day: 1, time: '16:30' },
];

/** Every file of the set, in memory. */
export function footballDataSet(options: SetOptions = {}): SeasonFile[] {
  const random = createRandom(options.seed ?? 20_250_801);
  const leagues = SET_LEAGUES.slice(0, options.leagues ?? SET_LEAGUES.length);
  const seasons = options.seasons ?? 20;
  const clubs = leagues.map((league) => ({ ...league, clubs: clubsOf(random, league.teams) }));
  const files: SeasonFile[] = [];
  for (let year = LAST_SEASON - seasons + 1; year <= LAST_SEASON; year++) {
    const header = year >= 2024 ? SEASON_2024 : year >= 2019 ? MODERN : year >= 2012 ? BETBRAIN : EARLY_BETBRAIN;
    for (const league of clubs) {
      const fixtures = seasonOf(random, league.div, league.clubs, year);
      const text = footballDataCsv(header, fixtures, random, { shortYear: year < 2017 });
      files.push({ path: `${two(year % 100)}${two((year + 1) % 100)}/${league.div}.csv`, text, matches: fixtures.length });
    }
  }
  return files;
}

/** Writes the set under `dir`; answers the files' paths. */
export function writeFootballDataSet(dir: string, options: SetOptions = {}): string[] {
  return footballDataSet(options).map((file) => {
    const path = join(dir, file.path);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, file.text);
    return path;
  });
}

const two = (n: number) => String(n).padStart(2, '0');

function clubsOf(random: Random, count: number): Array<{ name: string; strength: number }> {
  const names = new Set<string>();
  while (names.size < count) names.add(`${random.pick(FIRST_PARTS)}${random.pick(LAST_PARTS)}${random.pick(CLUB_WORDS)}`);
  return [...names].map((name) => ({ name, strength: random.normal() * 0.35 }));
}

function poissonDraw(random: Random, mean: number): number {
  const limit = Math.exp(-mean);
  let [goals, product] = [0, random.next()];
  while (product > limit) {
    goals++;
    product *= random.next();
  }
  return goals;
}

/** A double round robin (the circle method), one round a week from the first Saturday after 7 August. */
function seasonOf(random: Random, div: string, clubs: ReadonlyArray<{ name: string; strength: number }>, year: number): Fixture[] {
  const first = new Date(Date.UTC(year, 7, 8));
  first.setUTCDate(first.getUTCDate() + ((6 - first.getUTCDay() + 7) % 7));
  const order = [...clubs.keys()];
  const rounds = 2 * (clubs.length - 1);
  const fixtures: Fixture[] = [];
  for (let round = 0; round < rounds; round++) {
    const pairs = Array.from({ length: clubs.length / 2 }, (_, i) => [order[i] ?? 0, order[clubs.length - 1 - i] ?? 0] as const);
    pairs.forEach(([a, b], match) => {
      const [home, away] = (round < rounds / 2) === (match % 2 === 0) ? [clubs[a], clubs[b]] : [clubs[b], clubs[a]];
      if (!home || !away) return;
      const slot = SLOTS[match] ?? { day: 0, time: '15:00' };
      const day = new Date(first.getTime() + (7 * round + slot.day) * 86_400_000);
      const expected = { home: Math.exp(Math.log(1.45) + (home.strength - away.strength) / 2), away: Math.exp(Math.log(1.15) + (away.strength - home.strength) / 2) };
      const score = { home: poissonDraw(random, expected.home), away: poissonDraw(random, expected.away), htHome: 0, htAway: 0 };
      for (let g = 0; g < score.home; g++) score.htHome += random.chance(0.45) ? 1 : 0;
      for (let g = 0; g < score.away; g++) score.htAway += random.chance(0.45) ? 1 : 0;
      const date = { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() };
      fixtures.push({ div, date, time: slot.time, home: home.name, away: away.name, referee: random.pick(REFEREES), expected, score });
    });
    order.splice(1, 0, order.pop() ?? 0);
  }
  return fixtures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, ...flags] = process.argv.slice(2);
  if (!dir) throw new Error('usage: football-data-set.ts OUT_DIR [--seed N] [--seasons N] [--leagues N]');
  const flag = (name: string) => {
    const at = flags.indexOf(`--${name}`);
    return at >= 0 ? Number(flags[at + 1]) : undefined;
  };
  const paths = writeFootballDataSet(dir, { seed: flag('seed'), seasons: flag('seasons'), leagues: flag('leagues') });
  process.stdout.write(`${paths.length} files under ${dir}\n`);
}
