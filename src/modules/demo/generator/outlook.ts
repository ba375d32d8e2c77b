import type { SportDef } from './catalog.js';
import type { Random } from './random.js';

/**
 * One view of a game, from which all its prices and its score come: the home side's expected
 * margin (from the two ratings) and the expected total. A moneyline, a spread and a total read off
 * one outlook cannot disagree: a 15-point favourite wins about nine times in ten, and its −15.5 is
 * priced near evens.
 */
export interface Outlook {
  /** Chances of a home win, a draw and an away win in regular time. */
  result: { home: number; draw: number; away: number };
  /** The chance that the home side wins, a tie being played off (overtime, extra innings, a shoot-out). */
  homeWins: number;
  /** The chance that the home side's score plus `line` (a half point) beats the away side's. */
  homeCovers(line: number): number;
  /** The chance that the total goes over `line`. */
  over(line: number): number;
  /** The chance that one side's own score goes over `line`. */
  sideOver(side: 'home' | 'away', line: number): number;
  /** The chance that both sides score (a goals sport; 0 elsewhere). */
  bothScore: number;
  /** The main lines: the home handicap, the total and each side's total, each priced nearest evens. */
  mainSpread: number;
  mainTotal: number;
  mainSideTotal(side: 'home' | 'away'): number;
  /** The game after news or money has moved it: the home side rated `ratingShift` better, the total expected larger by the fraction `totalShift`. */
  shifted(ratingShift: number, totalShift: number): Outlook;
  /** A final score drawn from the outlook; with `fraction` < 1, the score that far into the game. */
  score(random: Random, fraction?: number): { home: number; away: number };
}

/** An outlook from the sides' rating difference (home minus away, home advantage included) and the expected total. */
export function outlookOf(sport: SportDef, diff: number, total: number): Outlook {
  const { scoring } = sport;
  const shifted = (ratingShift: number, totalShift: number) => outlookOf(sport, diff + ratingShift, total * (1 + totalShift));
  return scoring.kind === 'margin'
    ? marginOutlook(sport, diff * scoring.perRating, total, scoring.marginSd, scoring.totalSd, shifted)
    : goalsOutlook(sport, diff * scoring.perRating, total, shifted);
}

/** The expected total of a game: the sport's mean, varied by game; lopsided tennis matches are shorter. */
export function expectedTotal(random: Random, sport: SportDef, diff: number): number {
  const [mean, sd] = sport.scoring.total;
  const shorter = sport.individual ? 0.5 * Math.abs(diff * sport.scoring.perRating) : 0;
  return mean + random.normal() * sd - shorter;
}

/** A line that ends in .5, so that no bet pushes: the one nearest `x` from below. */
export const halfPoint = (x: number) => Math.floor(x) + 0.5;

/** Standard normal distribution function (Abramowitz & Stegun 7.1.26, error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

type Shift = (ratingShift: number, totalShift: number) => Outlook;

/** Points sports: the margin and the total are about normal (many scores add up). */
function marginOutlook(sport: SportDef, margin: number, total: number, marginSd: number, totalSd: number, shifted: Shift): Outlook {
  const homeWins = normalCdf(margin / marginSd);
  // A side scores half the total plus or minus half the margin; the two vary independently.
  const sideSd = Math.hypot(marginSd, totalSd) / 2;
  const sideMean = (side: 'home' | 'away') => (total + (side === 'home' ? margin : -margin)) / 2;
  return {
    result: { home: homeWins, draw: 0, away: 1 - homeWins },
    homeWins,
    homeCovers: (line) => normalCdf((margin + line) / marginSd),
    over: (line) => normalCdf((total - line) / totalSd),
    sideOver: (side, line) => normalCdf((sideMean(side) - line) / sideSd),
    bothScore: 0,
    mainSpread: -halfPoint(margin),
    mainTotal: halfPoint(total),
    mainSideTotal: (side) => halfPoint(sideMean(side)),
    shifted,
    score(random, fraction = 1) {
      const played = random.normal() * marginSd + margin;
      if (sport.individual) return setsOf(random, played > 0, fraction);
      const points = Math.max(2, random.normal() * totalSd + total);
      const home = Math.max(0, Math.round((points + played) / 2));
      const away = Math.max(0, Math.round((points - played) / 2));
      // No ties: overtime settles it by a few points.
      if (home === away && !sport.draws) return partOf(played > 0 ? { home: home + 3, away } : { home, away: away + 3 }, fraction);
      return partOf({ home, away }, fraction);
    },
  };
}

/** Tennis counts sets, best of three: the winner takes two. */
function setsOf(random: Random, homeWins: boolean, fraction: number): { home: number; away: number } {
  const loser = random.chance(0.4) ? 1 : 0;
  return partOf(homeWins ? { home: 2, away: loser } : { home: loser, away: 2 }, fraction);
}

/** The score `fraction` of the way through: a live game's score so far. */
function partOf(score: { home: number; away: number }, fraction: number): { home: number; away: number } {
  if (fraction >= 1) return score;
  return { home: Math.floor(score.home * fraction), away: Math.floor(score.away * fraction) };
}

/** The chances of 0, 1, 2, … of a Poisson count, far enough out that the rest is negligible. */
function poisson(mean: number): number[] {
  const top = Math.ceil(mean + 5 * Math.sqrt(mean) + 2);
  const p = [Math.exp(-mean)];
  for (let k = 1; k <= top; k++) p.push(((p[k - 1] ?? 0) * mean) / k);
  return p;
}

/** The chance that a count with these chances (from `first` on) exceeds a half-point line, read from its tail sums. */
function tailOf(chances: readonly number[], first = 0): (line: number) => number {
  // tail[i]: the chance of a value from first + i on.
  const tail = new Array<number>(chances.length + 1).fill(0);
  for (let i = chances.length - 1; i >= 0; i--) tail[i] = (tail[i + 1] ?? 0) + (chances[i] ?? 0);
  return (line) => tail[Math.min(chances.length, Math.max(0, Math.floor(line) + 1 - first))] ?? 0;
}

/** The half-point line, from `from` to `to`, at which a falling chance is nearest evens: one of the two lines around its crossing. */
function nearestEvens(chanceOver: (line: number) => number, from: number, to: number): number {
  let line = from;
  while (line < to && chanceOver(line + 1) >= 0.5) line++;
  const next = Math.min(to, line + 1);
  return Math.abs(chanceOver(next) - 0.5) < Math.abs(chanceOver(line) - 0.5) ? next : line;
}

/** Goals sports: each side's score is a Poisson count around its share of the total. */
function goalsOutlook(sport: SportDef, supremacy: number, total: number, shifted: Shift): Outlook {
  const means = { home: Math.max(0.15, (total + supremacy) / 2), away: Math.max(0.15, (total - supremacy) / 2) };
  const sides = { home: poisson(means.home), away: poisson(means.away) };
  // The home margin d, at index d + away.length - 1.
  const offset = sides.away.length - 1;
  const margins = new Array<number>(sides.home.length + offset).fill(0);
  for (let i = 0; i < sides.home.length; i++) {
    const h = sides.home[i] ?? 0;
    for (let j = 0; j < sides.away.length; j++) margins[i - j + offset] = (margins[i - j + offset] ?? 0) + h * (sides.away[j] ?? 0);
  }
  const marginAbove = tailOf(margins, -offset);
  // The home side covers `line` when its margin d satisfies d + line > 0.
  const homeCovers = (line: number) => marginAbove(-line);
  const home = homeCovers(-0.5);
  const away = 1 - homeCovers(0.5);
  const draw = 1 - home - away;
  // A tie played off goes the stronger side's way as often as the game would.
  const homeWins = home + (draw * home) / (home + away);
  const totals = poisson(means.home + means.away);
  const over = tailOf(totals);
  const sideOver = { home: tailOf(sides.home), away: tailOf(sides.away) };
  const sideTotals = { home: nearestEvens(sideOver.home, 0.5, sides.home.length - 0.5), away: nearestEvens(sideOver.away, 0.5, sides.away.length - 0.5) };
  // Run and puck lines give the favourite 1.5; a soccer handicap is hung nearest evens.
  const mainSpread = sport.spreads === 'one-and-a-half' ? (homeWins >= 0.5 ? -1.5 : 1.5) : -nearestEvens((line) => homeCovers(-line), -3.5, 3.5);
  return {
    result: { home, draw, away },
    homeWins,
    homeCovers,
    over,
    sideOver: (side, line) => sideOver[side](line),
    bothScore: (1 - (sides.home[0] ?? 0)) * (1 - (sides.away[0] ?? 0)),
    mainSpread,
    mainTotal: nearestEvens(over, 0.5, totals.length - 0.5),
    mainSideTotal: (side) => sideTotals[side],
    shifted,
    score(random, fraction = 1) {
      const score = { home: poissonDraw(random, means.home), away: poissonDraw(random, means.away) };
      // Extra time, extra innings or a shoot-out: one more for the side that wins it.
      if (score.home === score.away && !sport.draws) {
        if (random.chance(home / (home + away))) score.home++;
        else score.away++;
      }
      return partOf(score, fraction);
    },
  };
}

/** A Poisson count (Knuth's method: the means here are small). */
function poissonDraw(random: Random, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let product = random.next(); product > limit; product *= random.next()) k++;
  return k;
}
