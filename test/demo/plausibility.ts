/**
 * What a sports person expects of a day's fixtures and a sportsbook's board, as checks over
 * plain records: the generator's dataset and the API's answers are both read into these shapes,
 * so the same checks run on the data as made and on the data as served. Each check returns the
 * problems it found, in words (an empty list when there are none).
 */

export interface GameRecord {
  id: number;
  sport: string;
  /** The league's key. */
  league: string;
  /** Epoch ms. */
  start: number;
  status: string;
  home: number;
  away: number;
  homeScore: number | null;
  awayScore: number | null;
}

export interface PriceRecord {
  event: number;
  operator: number;
  /** The betting market's key (`moneyline`, `spread`, `total`, …). */
  market: string;
  position: string;
  line: number | null;
  price: number;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** No game of these sports lasts longer, stoppages and overtime included. */
const LONGEST_GAME_MS = 4 * HOUR_MS;

const utcDay = (instant: number) => new Date(instant).toISOString().slice(0, 10);

/** Each team plays at most once a calendar day: the UTC day, and the day where its league plays (`zoneOf`). */
export function teamsTwiceADay(games: readonly GameRecord[], zoneOf: (league: string) => string): string[] {
  const seen = new Map<string, number>();
  const problems: string[] = [];
  for (const game of games) {
    const days = [`UTC ${utcDay(game.start)}`, `local ${localDate(zoneOf(game.league), game.start)}`];
    for (const team of [game.home, game.away]) {
      for (const day of days) {
        const key = `${team} ${day}`;
        const other = seen.get(key);
        if (other !== undefined) problems.push(`team ${team} plays events ${other} and ${game.id} on ${day}`);
        seen.set(key, game.id);
      }
    }
  }
  return problems;
}

/** The same two teams meet at most once a day (UTC). */
export function repeatedMatchups(games: readonly GameRecord[]): string[] {
  const seen = new Map<string, number>();
  const problems: string[] = [];
  for (const game of games) {
    const key = `${Math.min(game.home, game.away)}-${Math.max(game.home, game.away)} ${utcDay(game.start)}`;
    const other = seen.get(key);
    if (other !== undefined) problems.push(`events ${other} and ${game.id} are the same matchup on ${utcDay(game.start)}`);
    seen.set(key, game.id);
  }
  return problems;
}

/** The local hour of each start in its league's zone lies between `from` and `to` (hours, `to` excluded). */
export function startsOutside(games: readonly GameRecord[], zoneOf: (league: string) => string, from: number, to: number): string[] {
  return games.flatMap((game) => {
    const hour = localHour(zoneOf(game.league), game.start);
    return hour >= from && hour < to ? [] : [`event ${game.id} starts at ${hour.toFixed(2)} local time in ${zoneOf(game.league)}`];
  });
}

/**
 * The status agrees with the clock: not started is `scheduled` (or postponed, cancelled), started
 * is no longer `scheduled`, `live` only within a game's length of the start, and a score exactly
 * when the event is live or final. A final score has a winner, except in soccer; tennis counts sets,
 * best of three.
 */
export function statusesAgainstClock(games: readonly GameRecord[], now: number): string[] {
  const problems: string[] = [];
  for (const game of games) {
    const at = `event ${game.id} (${game.sport}, ${new Date(game.start).toISOString()}, ${game.status})`;
    const started = game.start <= now;
    const scored = game.homeScore !== null && game.awayScore !== null;
    if (!started && !['scheduled', 'postponed', 'cancelled'].includes(game.status)) problems.push(`${at} has not started at ${new Date(now).toISOString()}`);
    if (started && game.status === 'scheduled') problems.push(`${at} started before ${new Date(now).toISOString()}`);
    if (game.status === 'live' && now - game.start >= LONGEST_GAME_MS) problems.push(`${at} is still live at ${new Date(now).toISOString()}`);
    if (scored !== (game.status === 'live' || game.status === 'final')) problems.push(`${at} has score ${game.homeScore}-${game.awayScore}`);
    if (game.status !== 'final' || game.homeScore === null || game.awayScore === null) continue;
    if (game.sport !== 'soccer' && game.homeScore === game.awayScore) problems.push(`${at} ended in a tie ${game.homeScore}-${game.awayScore}`);
    if (game.sport === 'tennis' && Math.max(game.homeScore, game.awayScore) !== 2) problems.push(`${at} is not best of three sets: ${game.homeScore}-${game.awayScore}`);
  }
  return problems;
}

/** One book's prices of one market at one line: its sides, and what makes them one market. */
export interface BookMarket {
  event: number;
  operator: number;
  market: string;
  /** The side's subject (a team or player name) for props, else empty. */
  subject: string;
  /** The home side's line for a spread, the line for a total or prop, null without one. */
  line: number | null;
  sides: Map<string, number>;
}

const SIDE_WORDS = new Set(['over', 'under']);
/** Markets with one selection only: a player to score (no "no" side is offered). */
const ONE_SIDED = new Set(['anytime-goalscorer', 'anytime-touchdown', 'player-home-run', 'anytime-goal']);


/** Groups prices into the markets each book offers: one market is one book's sides of one line. */
export function bookMarkets(prices: readonly PriceRecord[]): BookMarket[] {
  const markets = new Map<string, BookMarket>();
  for (const price of prices) {
    const words = price.position.split(' ');
    const last = words.at(-1) ?? '';
    // A one-sided market's position is its player: one market a player.
    const [subject, side] = ONE_SIDED.has(price.market)
      ? [price.position, 'yes']
      : SIDE_WORDS.has(last) && words.length > 1
        ? [words.slice(0, -1).join(' '), last]
        : ['', price.position];
    // A spread's away side is priced at the opposite line: one market, told by the home line.
    const line = price.line === null ? null : price.market === 'spread' && side === 'away' ? -price.line : price.line;
    const key = `${price.event}|${price.operator}|${price.market}|${subject}|${line}`;
    let market = markets.get(key);
    if (market === undefined) {
      market = { event: price.event, operator: price.operator, market: price.market, subject, line, sides: new Map() };
      markets.set(key, market);
    }
    market.sides.set(side, price.price);
  }
  return [...markets.values()];
}

const TWO_WAY = [['home', 'away'], ['over', 'under'], ['yes', 'no']] as const;

const describe = (m: BookMarket) => `event ${m.event} operator ${m.operator} ${m.market}${m.subject ? ` ${m.subject}` : ''}${m.line === null ? '' : ` ${m.line}`}`;
const overround = (m: BookMarket) => [...m.sides.values()].reduce((sum, price) => sum + 1 / price, 0) - 1;

/**
 * Each book offers whole markets (both sides of a two-way market, the three of a match result) with
 * a plausible margin: the implied probabilities add up to 1 plus `twoWay` (or `threeWay`), min and max.
 */
export function marginProblems(markets: readonly BookMarket[], twoWay: readonly [number, number], threeWay: readonly [number, number]): string[] {
  const problems: string[] = [];
  for (const m of markets) {
    const sides = [...m.sides.keys()].sort().join('/');
    if (ONE_SIDED.has(m.market)) {
      if (m.sides.size !== 1) problems.push(`${describe(m)} has sides ${sides}`);
      continue;
    }
    const whole = m.market === 'match-result' ? sides === 'away/draw/home' : TWO_WAY.some((pair) => [...pair].sort().join('/') === sides);
    if (!whole) {
      problems.push(`${describe(m)} is not a whole market: ${sides}`);
      continue;
    }
    const [min, max] = m.sides.size === 3 ? threeWay : twoWay;
    const margin = overround(m);
    if (margin < min || margin > max) problems.push(`${describe(m)} has a margin of ${(margin * 100).toFixed(1)} %: ${[...m.sides].join(' ')}`);
  }
  return problems;
}

/** The spread lines of one book on one event, by home line. */
function spreadsOf(markets: readonly BookMarket[]): Map<string, BookMarket[]> {
  const byBook = new Map<string, BookMarket[]>();
  for (const m of markets) {
    if (m.market !== 'spread' || m.line === null) continue;
    const key = `${m.event}|${m.operator}`;
    byBook.set(key, [...(byBook.get(key) ?? []), m]);
  }
  return byBook;
}

const priceOf = (m: BookMarket, side: string) => m.sides.get(side) ?? Number.NaN;

/**
 * A book's main spread line: the line priced closest to evens; for baseball's run line and
 * hockey's puck line, ±1.5 by convention.
 */
function mainSpread(lines: readonly BookMarket[], sport: string): BookMarket | undefined {
  if (sport === 'baseball' || sport === 'ice-hockey') return lines.find((m) => Math.abs(m.line ?? 0) === 1.5);
  const gap = (m: BookMarket) => Math.abs(1 / priceOf(m, 'home') - 1 / priceOf(m, 'away'));
  return [...lines].sort((a, b) => gap(a) - gap(b))[0];
}

/**
 * The moneyline and the spread of a book tell one story: the moneyline favourite (the match
 * result's, in soccer) gives the points on the main spread. In basketball and American football,
 * whose margins are many points, the main spread is priced near evens on both sides, a short
 * favourite has a big spread and a big spread a short favourite.
 */
export function moneylineAgainstSpread(markets: readonly BookMarket[], sportOf: (event: number) => string): string[] {
  const problems: string[] = [];
  const winners = new Map<string, BookMarket>();
  for (const m of markets) if (m.market === 'moneyline' || m.market === 'match-result') winners.set(`${m.event}|${m.operator}`, m);
  for (const [key, lines] of spreadsOf(markets)) {
    const winner = winners.get(key);
    const first = lines[0];
    if (winner === undefined || first === undefined) continue;
    const sport = sportOf(first.event);
    const main = mainSpread(lines, sport);
    if (main === undefined || main.line === null) {
      problems.push(`event ${first.event} operator ${first.operator}: no main spread line among ${lines.map((l) => l.line).join(', ')}`);
      continue;
    }
    const [home, away] = [priceOf(winner, 'home'), priceOf(winner, 'away')];
    const at = `event ${first.event} (${sport}) operator ${first.operator}: moneyline ${home}/${away}, main spread home ${main.line} at ${priceOf(main, 'home')}/${priceOf(main, 'away')}`;
    if ((home < away && main.line > 0) || (away < home && main.line < 0)) problems.push(`${at}: the favourite takes points`);
    if (sport !== 'basketball' && sport !== 'american-football') continue;
    const favourite = Math.min(home, away);
    const points = Math.abs(main.line);
    for (const side of ['home', 'away']) if (priceOf(main, side) < 1.7 || priceOf(main, side) > 2.25) problems.push(`${at}: the main spread is not near evens`);
    if (favourite <= 1.2 && points < 7.5) problems.push(`${at}: a short favourite with a small spread`);
    if (points >= 10.5 && favourite > 1.45) problems.push(`${at}: a big spread with a long favourite`);
    if (favourite < 1.02) problems.push(`${at}: a favourite priced as a certainty`);
  }
  return problems;
}

/**
 * Alternate lines are sensible: further out a side is harder and its price longer (monotonic in
 * the line), and no line is so far out that a side is priced as a certainty or a lottery ticket.
 */
export function alternateProblems(markets: readonly BookMarket[], priceRange: readonly [number, number]): string[] {
  const problems: string[] = [];
  const families = new Map<string, BookMarket[]>();
  for (const m of markets) {
    if (m.line === null || ONE_SIDED.has(m.market)) continue;
    const key = `${m.event}|${m.operator}|${m.market}|${m.subject}`;
    families.set(key, [...(families.get(key) ?? []), m]);
  }
  for (const family of families.values()) {
    const sorted = [...family].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    // The side that a higher line helps: the home side of a spread (more points), the under of a total.
    const helped = sorted[0]?.market === 'spread' ? 'home' : 'under';
    for (let i = 1; i < sorted.length; i++) {
      const [lower, higher] = [sorted[i - 1], sorted[i]];
      if (lower === undefined || higher === undefined) continue;
      if (priceOf(higher, helped) > priceOf(lower, helped)) problems.push(`${describe(higher)}: ${helped} at ${priceOf(higher, helped)} is longer than at line ${lower.line} (${priceOf(lower, helped)})`);
    }
    if (family.length < 2) continue;
    for (const m of family) {
      for (const [side, price] of m.sides) if (price < priceRange[0] || price > priceRange[1]) problems.push(`${describe(m)}: ${side} at ${price}`);
    }
  }
  return problems;
}

/** `YYYY-MM-DD` of an instant in a zone. */
export function localDate(zone: string, instant: number): string {
  const parts = partsIn(zone, instant);
  return `${parts.year}-${parts.month}-${parts.day}`;
}

function localHour(zone: string, instant: number): number {
  const parts = partsIn(zone, instant);
  return Number(parts.hour) + Number(parts.minute) / 60;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(zone: string, instant: number): Record<string, string> {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    formatters.set(zone, formatter);
  }
  return Object.fromEntries(formatter.formatToParts(instant).map((p) => [p.type, p.value]));
}

export { DAY_MS };
