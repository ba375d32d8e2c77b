import type { MarketDef } from './catalog.js';
import { halfPoint, normalCdf, type Outlook } from './outlook.js';
import type { Random } from './random.js';
import type { LeagueModel, MarketModel, PlayerModel, TeamModel } from './references.js';

/**
 * What can be bet on an event: its markets, each with the fair chance of every side, read off an
 * outlook (outlook.ts). A book quotes a market whole, all its sides at one line, so that its
 * margin is what the sides' implied chances add up to beyond 1.
 */

export type Focus = { type: 'team'; team: TeamModel } | { type: 'player'; player: PlayerModel } | { type: 'event' };

export interface Selection {
  market: MarketModel;
  position: string;
  line: number | null;
  split: 'over' | 'under' | null;
  /** Fair chance, before a book's margin. */
  p: number;
  focus: Focus;
}

/** One market at one line: all its sides. */
export interface Offer {
  market: MarketModel;
  sides: Selection[];
  /** Props, alternate lines and three-way markets carry more margin than a book's main two-way lines. */
  extra: boolean;
  /** The sides' chances under another view of the game, for a market read off the outlook (players' props are not). */
  reprice?: (view: Outlook) => number[];
}

/** The sides of a game, as the offers need them. */
export interface Matchup {
  league: LeagueModel;
  home: TeamModel;
  away: TeamModel;
}

/** A player's statistic, with its expected value: its over/under is priced from it. */
export interface PlayerStat {
  market: MarketModel;
  player: PlayerModel;
  mean: number;
}

/** A player to record something (score, homer), with the chance: a market of one side. */
export interface PlayerYes {
  market: MarketModel;
  player: PlayerModel;
  p: number;
}

/** The props of an event are drawn once, and every book prices the same players. */
export interface Props {
  stats: PlayerStat[];
  yes: PlayerYes[];
}

/** Alternate lines stop where a side's chance leaves this range: no book offers a near-certainty. */
const ALTERNATE_CHANCE = [0.1, 0.9] as const;

const team = (t: TeamModel): Focus => ({ type: 'team', team: t });
const EVENT: Focus = { type: 'event' };

const marketsOf = (game: Matchup, kind: MarketDef['kind']) => game.league.sport.markets.filter((m) => m.def.kind === kind);

/** The sport's own total market when it has one (tennis counts games), else the total of every sport. */
function totalMarkets(game: Matchup): MarketModel[] {
  const totals = marketsOf(game, 'total');
  const own = totals.filter((m) => m.def.sport !== null);
  return own.length > 0 ? own : totals;
}

/** The players whose props an event offers: two a market, of the positions that record the statistic. */
export function drawProps(random: Random, game: Matchup): Props {
  const candidates = (m: MarketModel) => {
    const allowed = m.def.positions;
    return [...game.home.players, ...game.away.players].filter((p) => !allowed || (p.position !== null && allowed.includes(p.position)));
  };
  const stats = marketsOf(game, 'player-over-under').flatMap((market) =>
    random.sample(candidates(market), 2).map((player) => {
      const base = market.def.line ?? 0.5;
      return { market, player, mean: Math.max(0.3, base + random.normal() * (base / 5)) };
    }),
  );
  const yes = marketsOf(game, 'player-yes').flatMap((market) =>
    random.sample(candidates(market), 2).map((player) => ({ market, player, p: Math.min(0.6, Math.max(0.08, 0.3 + random.normal() * 0.1)) })),
  );
  return { stats, yes };
}

/** The main markets as one book sees the game: who wins, the main handicap, the main total. */
export function mainOffers(game: Matchup, view: Outlook): Offer[] {
  const { home, away } = game;
  const offers: Offer[] = [];
  for (const market of marketsOf(game, 'three-way')) {
    const { result } = view;
    offers.push({
      market,
      extra: true,
      reprice: (v) => [v.result.home, v.result.draw, v.result.away],
      sides: [
        { market, position: 'home', line: null, split: null, p: result.home, focus: team(home) },
        { market, position: 'draw', line: null, split: null, p: result.draw, focus: EVENT },
        { market, position: 'away', line: null, split: null, p: result.away, focus: team(away) },
      ],
    });
  }
  if (!game.league.sport.def.draws) {
    for (const market of marketsOf(game, 'moneyline')) {
      offers.push({
        market,
        extra: false,
        reprice: (v) => [v.homeWins, 1 - v.homeWins],
        sides: [
          { market, position: 'home', line: null, split: null, p: view.homeWins, focus: team(home) },
          { market, position: 'away', line: null, split: null, p: 1 - view.homeWins, focus: team(away) },
        ],
      });
    }
  }
  for (const family of [...spreadFamilies(game, view, false), ...totalFamilies(game, view, false)]) {
    const offer = family.at(family.main);
    if (offer) offers.push(offer);
  }
  return offers;
}

/**
 * The props at their main lines: both teams to score, team totals, players' statistics, players to
 * score. Made one at a time: most events' share of odds ends before their props do.
 */
export function* propOffers(game: Matchup, view: Outlook, props: Props): Generator<Offer> {
  for (const market of marketsOf(game, 'event-yes-no')) {
    yield {
      market,
      extra: true,
      reprice: (v) => [v.bothScore, 1 - v.bothScore],
      sides: [
        { market, position: 'yes', line: null, split: null, p: view.bothScore, focus: EVENT },
        { market, position: 'no', line: null, split: null, p: 1 - view.bothScore, focus: EVENT },
      ],
    };
  }
  for (const family of propFamilies(game, view, props)) {
    const offer = family.at(family.main);
    if (offer) yield offer;
  }
  for (const { market, player, p } of props.yes) {
    yield { market, extra: true, sides: [{ market, position: player.name, line: null, split: null, p, focus: { type: 'player', player } }] };
  }
}

/** A market over lines: its main line, and the market at another line (undefined where it is not offered). */
export interface LineFamily {
  main: number;
  at(line: number): Offer | undefined;
}

/** The markets over lines whose alternates books offer: the handicap, the total and the props with a line. */
export function lineFamilies(game: Matchup, view: Outlook, props: Props): LineFamily[] {
  return [...spreadFamilies(game, view, true), ...totalFamilies(game, view, true), ...propFamilies(game, view, props, true)];
}

const within = (p: number) => p >= ALTERNATE_CHANCE[0] && p <= ALTERNATE_CHANCE[1];

/** Over and under one line; `over` gives the over's chance under a view (none for a player's statistic). */
function overUnder(market: MarketModel, line: number, pOver: number, focus: Focus, extra: boolean, subject = '', over?: (view: Outlook) => number): Offer {
  const prefix = subject === '' ? '' : `${subject} `;
  return {
    market,
    extra,
    ...(over === undefined ? {} : { reprice: (v: Outlook) => [over(v), 1 - over(v)] }),
    sides: [
      { market, position: `${prefix}over`, line, split: 'over', p: pOver, focus },
      { market, position: `${prefix}under`, line, split: 'under', p: 1 - pOver, focus },
    ],
  };
}

/**
 * The handicap: the home side at `line`, the away side at its opposite. Run and puck lines stay
 * on the favourite's side of ±1.5 (a −0.5 would be a moneyline without extra time).
 */
function spreadFamilies(game: Matchup, view: Outlook, alternate: boolean): LineFamily[] {
  const oneAndAHalf = game.league.sport.def.spreads === 'one-and-a-half';
  return marketsOf(game, 'spread').map((market) => ({
    main: view.mainSpread,
    at(line: number) {
      if (oneAndAHalf && (Math.abs(line) < 1.5 || Math.sign(line) !== Math.sign(view.mainSpread))) return undefined;
      const p = view.homeCovers(line);
      if (alternate && !within(p)) return undefined;
      return {
        market,
        extra: alternate,
        reprice: (v) => [v.homeCovers(line), 1 - v.homeCovers(line)],
        sides: [
          { market, position: 'home', line, split: null, p, focus: team(game.home) },
          { market, position: 'away', line: -line, split: null, p: 1 - p, focus: team(game.away) },
        ],
      };
    },
  }));
}

function totalFamilies(game: Matchup, view: Outlook, alternate: boolean): LineFamily[] {
  return totalMarkets(game).map((market) => ({
    main: view.mainTotal,
    at(line: number) {
      const p = view.over(line);
      if (line < 0 || (alternate && !within(p))) return undefined;
      return overUnder(market, line, p, EVENT, alternate, '', (v) => v.over(line));
    },
  }));
}

/** Team totals (not in tennis) and players' statistics: over/under a line, each of one side or player. */
function propFamilies(game: Matchup, view: Outlook, props: Props, alternate = false): LineFamily[] {
  const families: LineFamily[] = [];
  if (!game.league.sport.def.individual) {
    for (const market of marketsOf(game, 'team-total')) {
      for (const [side, t] of [['home', game.home], ['away', game.away]] as const) {
        families.push({
          main: view.mainSideTotal(side),
          at(line: number) {
            const p = view.sideOver(side, line);
            if (line < 0 || (alternate && !within(p))) return undefined;
            return overUnder(market, line, p, team(t), true, t.name, (v) => v.sideOver(side, line));
          },
        });
      }
    }
  }
  for (const { market, player, mean } of props.stats) {
    families.push({
      main: Math.max(0.5, halfPoint(mean)),
      at(line: number) {
        const p = statOver(mean, line);
        if (line < 0 || (alternate && !within(p))) return undefined;
        return overUnder(market, line, p, { type: 'player', player }, true, player.name);
      },
    });
  }
  return families;
}

/**
 * The chance that a player's statistic goes over `line`: a Poisson count for the small ones
 * (shots, strikeouts, aces), about normal for the large ones (points, yards).
 */
function statOver(mean: number, line: number): number {
  if (mean >= 15) return normalCdf((mean - line) / (0.3 * mean));
  let term = Math.exp(-mean);
  let atOrBelow = 0;
  for (let k = 0; k <= Math.floor(line); k++) {
    atOrBelow += term;
    term = (term * mean) / (k + 1);
  }
  return 1 - atOrBelow;
}
