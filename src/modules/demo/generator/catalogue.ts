import type { Dataset } from '../../import/index.js';
import { LEAGUES, MARKETS } from './catalog.js';
import type { SportModel } from './references.js';

/**
 * The reference records beyond sports, leagues and markets (decision 0112): countries, market
 * categories, market positions and event periods. Fixed, like the catalog: no randomness, so the
 * rest of the dataset is what it was before they existed.
 */

type Records<A extends keyof Dataset> = NonNullable<Dataset[A]>;

const CATEGORY_NAMES: Record<string, string> = {
  main: 'Main',
  'team-props': 'Team Props',
  'game-props': 'Game Props',
  'player-props': 'Player Props',
};

/** The generic sides of a selection; an odds row's own position may name a team or player. */
const POSITIONS: ReadonlyArray<[key: string, name: string]> = [
  ['home', 'Home'],
  ['away', 'Away'],
  ['draw', 'Draw'],
  ['over', 'Over'],
  ['under', 'Under'],
  ['yes', 'Yes'],
  ['no', 'No'],
];

const HALVES_AND_QUARTERS: ReadonlyArray<[string, string]> = [
  ['full-game', 'Full Game'],
  ['1st-half', '1st Half'],
  ['2nd-half', '2nd Half'],
  ['1st-quarter', '1st Quarter'],
  ['2nd-quarter', '2nd Quarter'],
  ['3rd-quarter', '3rd Quarter'],
  ['4th-quarter', '4th Quarter'],
];

/** The parts of a game that markets can be offered on, per sport key. */
const PERIODS: Record<string, ReadonlyArray<[key: string, name: string]>> = {
  soccer: [
    ['full-time', 'Full Time'],
    ['1st-half', '1st Half'],
    ['2nd-half', '2nd Half'],
  ],
  basketball: HALVES_AND_QUARTERS,
  'american-football': HALVES_AND_QUARTERS,
  baseball: [
    ['full-game', 'Full Game'],
    ['first-5-innings', 'First 5 Innings'],
    ['1st-inning', '1st Inning'],
  ],
  'ice-hockey': [
    ['full-game', 'Full Game'],
    ['regulation', 'Regulation Time'],
    ['1st-period', '1st Period'],
    ['2nd-period', '2nd Period'],
    ['3rd-period', '3rd Period'],
  ],
  tennis: [
    ['match', 'Match'],
    ['1st-set', '1st Set'],
    ['2nd-set', '2nd Set'],
  ],
};

const numbered = <T>(items: readonly T[]) => items.map((item, i) => ({ id: i + 1, item }));

/** The countries of the leagues, in the order the catalog first names them. */
export function countries(): Records<'countries'> {
  const byKey = new Map(LEAGUES.flatMap((l) => (l.country ? [[l.country.key, l.country.name] as const] : [])));
  return numbered([...byKey]).map(({ id, item: [key, name] }) => ({ id, key, name }));
}

/** One record per category the markets use; `categoryIdOf` gives a market's. */
export function marketCategories(): { categories: Records<'betting_market_categories'>; categoryIdOf: (key: string) => number } {
  const keys = [...new Set(MARKETS.map((m) => m.category))];
  const categories = numbered(keys).map(({ id, item: key }) => ({ id, key, name: CATEGORY_NAMES[key] ?? key }));
  const ids = new Map(categories.map((c) => [c.key, c.id]));
  return {
    categories,
    categoryIdOf(key) {
      const id = ids.get(key);
      if (id === undefined) throw new Error(`market category ${key}: no record`);
      return id;
    },
  };
}

export function marketPositions(): Records<'betting_market_positions'> {
  return numbered(POSITIONS).map(({ id, item: [key, name] }) => ({ id, key, name }));
}

export function eventPeriods(sports: readonly SportModel[]): Records<'event_periods'> {
  const periods = sports.flatMap((sport) => (PERIODS[sport.def.key] ?? []).map(([key, name]) => ({ key, name, sport_id: sport.id })));
  return numbered(periods).map(({ id, item }) => ({ id, ...item }));
}
