import { type LeagueDef, LEAGUES, type MarketDef, MARKETS, type SportDef, SPORTS } from './catalog.js';
import { CITIES, CLUB_FORMS, NICKNAMES, OPERATOR_NAMES, PEOPLE, type PeoplePool } from './names.js';
import { type Random, slug } from './random.js';

/**
 * The reference part of the demo world: sports, leagues, teams with a hidden strength
 * rating (it drives prices and trends), rosters, operators and markets.
 */

export interface SportModel {
  id: number;
  def: SportDef;
  markets: MarketModel[];
}
export interface MarketModel {
  id: number;
  def: MarketDef;
}
export interface LeagueModel {
  id: number;
  def: LeagueDef;
  sport: SportModel;
  teams: TeamModel[];
}
export interface TeamModel {
  id: number;
  key: string;
  name: string;
  abbreviation: string | null;
  location: string | null;
  league: LeagueModel;
  rating: number;
  players: PlayerModel[];
}
export interface PlayerModel {
  id: number;
  key: string;
  name: string;
  position: string | null;
  team: TeamModel;
}
export interface OperatorModel {
  id: number;
  key: string;
  name: string;
  /** The bookmaker's margin over fair odds on its main two-way lines (the overround). */
  margin: number;
}

export interface World {
  sports: SportModel[];
  leagues: LeagueModel[];
  teams: TeamModel[];
  players: PlayerModel[];
  operators: OperatorModel[];
  markets: MarketModel[];
}

export function buildWorld(random: Random, scale: number): World {
  const markets = MARKETS.map((def, i) => ({ id: i + 1, def }));
  const sports = SPORTS.map((def, i) => ({
    id: i + 1,
    def,
    markets: markets.filter((m) => m.def.sport === null || m.def.sport === def.key),
  }));
  const sportByKey = new Map(sports.map((s) => [s.def.key, s]));
  const names = new NameMaker(random);
  const teams: TeamModel[] = [];
  const players: PlayerModel[] = [];

  const leagues = LEAGUES.map((def, i) => {
    const sport = sportByKey.get(def.sport);
    if (!sport) throw new Error(`league ${def.key}: unknown sport ${def.sport}`);
    const league: LeagueModel = { id: i + 1, def, sport, teams: [] };
    const count = Math.max(2, Math.round(def.teams * scale));
    const abbreviations = new Set<string>();
    for (let n = 0; n < count; n++) {
      const team = names.team(league, abbreviations, teams.length + 1);
      league.teams.push(team);
      teams.push(team);
      for (const player of names.roster(team, players.length + 1)) players.push(player);
    }
    return league;
  });

  // Margins on main two-way lines from 3.5 % to 5.6 %: a book's own, as real ones differ.
  const operators = OPERATOR_NAMES.map((name, i) => ({ id: i + 1, key: slug(name), name, margin: 0.035 + 0.003 * i }));
  return { sports, leagues, teams, players, operators, markets };
}

/** Team and player names, unique where a key must be (teams everywhere, players in a team). */
class NameMaker {
  private readonly teamKeys = new Set<string>();

  constructor(private readonly random: Random) {}

  team(league: LeagueModel, abbreviations: Set<string>, id: number): TeamModel {
    const { def } = league;
    const usedCities = new Set(league.teams.map((t) => t.location));
    let candidate: { name: string; city: string | null; abbreviation: string } | undefined;
    for (let attempt = 0; attempt < 300 && candidate === undefined; attempt++) {
      const next = this.teamName(league);
      // Prefer one team per city and league, while there are cities left.
      if (attempt < 100 && next.city !== null && usedCities.has(next.city)) continue;
      if (!this.teamKeys.has(slug(next.name))) candidate = next;
    }
    if (candidate === undefined) {
      // Only at large scales: the word lists run out, so numbered sides appear.
      const base = this.teamName(league);
      let n = 2;
      while (this.teamKeys.has(slug(`${base.name} ${n}`))) n++;
      candidate = { ...base, name: `${base.name} ${n}` };
    }
    const key = slug(candidate.name);
    this.teamKeys.add(key);
    let abbreviation = candidate.abbreviation;
    for (let attempt = 0; abbreviations.has(abbreviation) && attempt < 50; attempt++) abbreviation = this.randomAbbreviation(candidate.name);
    abbreviations.add(abbreviation);
    const team: TeamModel = {
      id,
      key,
      name: candidate.name,
      abbreviation,
      location: candidate.city,
      league,
      // Hidden strength: about one rating point between a strong and a weak side.
      rating: this.random.normal() * 0.6,
      players: [],
    };
    return team;
  }

  roster(team: TeamModel, firstId: number): PlayerModel[] {
    const { def, sport } = team.league;
    if (sport.def.individual) return [{ id: firstId, key: team.key, name: team.name, position: null, team }];
    const keys = new Set<string>();
    return sport.def.roster.map((position, i) => {
      let name = this.person(def.people, def.female ?? false);
      while (keys.has(slug(name))) name = this.person(def.people, def.female ?? false);
      keys.add(slug(name));
      const player: PlayerModel = { id: firstId + i, key: slug(name), name, position, team };
      team.players.push(player);
      return player;
    });
  }

  person(pool: PeoplePool, female: boolean): string {
    // Rosters are international: a quarter of the names come from another pool.
    const chosen = this.random.chance(0.25) ? this.random.pick(['anglo', 'latin', 'euro', 'asia'] as const) : pool;
    const people = PEOPLE[chosen];
    return `${this.random.pick(female ? people.female : people.male)} ${this.random.pick(people.last)}`;
  }

  private teamName(league: LeagueModel): { name: string; city: string | null; abbreviation: string } {
    const { naming } = league.def;
    const r = this.random;
    switch (naming.style) {
      case 'person': {
        const name = this.person(league.def.people, league.def.female ?? false);
        return { name, city: null, abbreviation: letters(name.split(' ').slice(1).join(''), 3) };
      }
      case 'club': {
        const city = r.pick(CITIES[naming.cities]);
        return { name: r.pick(CLUB_FORMS[naming.forms]).replace('{city}', city), city, abbreviation: letters(city, 3) };
      }
      default: {
        const city = r.pick(CITIES[naming.cities]);
        const nickname = r.pick(NICKNAMES[naming.nicknames]);
        const name = naming.style === 'city-nickname' ? `${city} ${nickname}` : naming.style === 'nickname-de-city' ? `${nickname} de ${city}` : `${nickname} ${city}`;
        const words = city.split(/\s+/);
        const abbreviation = words.length > 1 ? letters(words.map((w) => w[0] ?? '').join('') + nickname, 3) : letters(city, 3);
        return { name, city, abbreviation };
      }
    }
  }

  private randomAbbreviation(name: string): string {
    const pool = letters(name, 40);
    return Array.from({ length: 3 }, () => this.random.pick([...pool])).join('');
  }
}

/** The first `count` letters A–Z of a text, accents dropped. */
function letters(text: string, count: number): string {
  return slug(text).replace(/[^a-z]/g, '').slice(0, count).toUpperCase().padEnd(Math.min(count, 3), 'X');
}
