import type { Random } from '../../src/modules/demo/generator/random.js';
import { columnKind, type Selection } from '../../src/modules/sources/football-data/columns.js';

/**
 * Writes matches as a football-data.co.uk file of a given header (bench/sources/football-data-columns.ts):
 * a byte order mark, Windows line endings, prices from a Poisson model of the expected goals with
 * each book's margin and noise, a book now and then not pricing a match (blank cells), and the
 * market maximum and average over the books that did.
 */

export interface Fixture {
  div: string;
  date: { year: number; month: number; day: number };
  /** `hh:mm`, UK time; written only when the header has a Time column. */
  time: string;
  home: string;
  away: string;
  referee: string;
  /** Expected goals: they set the fair prices, and the score when none is given. */
  expected: { home: number; away: number };
  /** Full time and half time; undefined for a fixture not yet played. */
  score?: { home: number; away: number; htHome: number; htAway: number };
}

/** Book margins (an exchange's is its commission); 6% for a book not listed. */
const MARGINS: Readonly<Record<string, number>> = { PS: 0.025, P: 0.025, BFE: 0.005, '1XB': 0.04, B365: 0.05, VC: 0.05 };
/** Chance that a book did not price a match (its cells left blank). */
const UNPRICED = 0.03;

export function footballDataCsv(header: string, fixtures: readonly Fixture[], random: Random, options: { shortYear: boolean }): string {
  const names = header.split(',');
  const lines = [names.join(',')];
  for (const fixture of fixtures) lines.push(rowOf(names, fixture, random, options.shortYear).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

interface Fair {
  probabilities: Record<string, number>;
  /** The home side's Asian handicap. */
  handicap: number;
}

function poisson(mean: number, goals: number): number {
  let p = Math.exp(-mean);
  for (let k = 1; k <= goals; k++) p *= mean / k;
  return p;
}

/** Fair probabilities of every selection the files price, from expected goals. */
function fairOf(home: number, away: number): Fair {
  const p = { H: 0, D: 0, A: 0, over: 0 };
  for (let h = 0; h <= 10; h++) {
    for (let a = 0; a <= 10; a++) {
      const both = poisson(home, h) * poisson(away, a);
      if (h > a) p.H += both;
      else if (h === a) p.D += both;
      else p.A += both;
      if (h + a > 2.5) p.over += both;
    }
  }
  const handicap = Math.max(-2.5, Math.min(2.5, Math.round(-(home - away) * 0.8 * 4) / 4)) || 0;
  const ahHome = Math.max(0.25, Math.min(0.75, 0.5 + (home - away + handicap) * 0.2));
  const total = p.H + p.D + p.A;
  return {
    handicap,
    probabilities: { H: p.H / total, D: p.D / total, A: p.A / total, '>': p.over, '<': 1 - p.over, AHH: ahHome, AHA: 1 - ahHome },
  };
}

function keyOf(selection: Selection): string {
  if (selection.market === 'total') return selection.position === 'over' ? '>' : '<';
  if (selection.market === 'spread') return selection.position === 'home' ? 'AHH' : 'AHA';
  return { home: 'H', draw: 'D', away: 'A', over: '', under: '' }[selection.position];
}

const two = (n: number) => String(n).padStart(2, '0');
const outcome = (home: number, away: number) => (home > away ? 'H' : home < away ? 'A' : 'D');

function rowOf(names: readonly string[], fixture: Fixture, random: Random, shortYear: boolean): string[] {
  const { date, score } = fixture;
  const fair = { pre: fairOf(fixture.expected.home, fixture.expected.away), closing: fairOf(fixture.expected.home * random.between(0.93, 1.07), fixture.expected.away * random.between(0.93, 1.07)) };
  /** Whether each book priced each market, pre-closing and closing: drawn once, for all its cells. */
  const priced = new Map<string, boolean>();
  const prices = new Map<string, number[]>();
  const cells = new Map<string, string>([
    ['Div', fixture.div],
    ['Date', `${two(date.day)}/${two(date.month)}/${shortYear ? two(date.year % 100) : date.year}`],
    ['Time', fixture.time],
    ['HomeTeam', fixture.home],
    ['AwayTeam', fixture.away],
    ['Referee', fixture.referee],
    ['AHh', String(fair.pre.handicap)],
    ['BbAHh', String(fair.pre.handicap)],
    ['AHCh', String(fair.closing.handicap)],
  ]);
  if (score) {
    const stats = { HS: fixture.expected.home * 7 + random.int(0, 6), AS: fixture.expected.away * 7 + random.int(0, 6), HF: random.int(6, 16), AF: random.int(6, 16), HC: random.int(1, 10), AC: random.int(1, 10), HY: random.int(0, 4), AY: random.int(0, 4), HR: random.chance(0.06) ? 1 : 0, AR: random.chance(0.06) ? 1 : 0 };
    const onTarget = { HST: Math.round(stats.HS * random.between(0.25, 0.45)), AST: Math.round(stats.AS * random.between(0.25, 0.45)) };
    for (const [name, value] of Object.entries({ ...stats, ...onTarget })) cells.set(name, String(Math.round(value)));
    cells.set('FTHG', String(score.home)).set('FTAG', String(score.away)).set('FTR', outcome(score.home, score.away));
    cells.set('HTHG', String(score.htHome)).set('HTAG', String(score.htAway)).set('HTR', outcome(score.htHome, score.htAway));
  }
  for (const name of names) {
    const kind = columnKind(name);
    if (kind?.kind !== 'price') continue;
    const group = `${kind.prefix}${kind.closing ? 'C' : ''}${kind.market}`;
    if (!priced.has(group)) priced.set(group, !random.chance(UNPRICED));
    if (priced.get(group) === false) continue;
    if (kind.market === 'spread') cells.set(`${kind.prefix}${kind.closing ? 'C' : ''}AH`, String((kind.closing ? fair.closing : fair.pre).handicap));
    const p = (kind.closing ? fair.closing : fair.pre).probabilities[keyOf(kind)] ?? 0.5;
    const price = Math.max(1.01, Math.round((100 / (p * (1 + (MARGINS[kind.prefix] ?? 0.06)))) * random.between(0.985, 1.015)) / 100);
    cells.set(name, price.toFixed(2));
    const same = `${kind.closing ? 'C' : ''}${keyOf(kind)}`;
    prices.set(same, [...(prices.get(same) ?? []), price]);
  }
  return names.map((name) => cells.get(name) ?? aggregateCell(name, prices, random));
}

/** A maximum, an average or a count over the books the row priced; blank when none did. */
function aggregateCell(name: string, prices: Map<string, number[]>, random: Random): string {
  if (name === 'Bb1X2' || name === 'BbOU' || name === 'BbAH') return String(random.int(20, 45));
  const kind = columnKind(name);
  if (kind?.kind !== 'aggregate') return '';
  const priced = prices.get(`${kind.closing ? 'C' : ''}${keyOf(kind)}`) ?? [];
  if (priced.length === 0) return '';
  const figure = kind.prefix.includes('M') ? Math.max(...priced) : priced.reduce((sum, price) => sum + price, 0) / priced.length;
  return figure.toFixed(2);
}
