import type { Dataset } from '../../import/index.js';
import type { EventModel, Selection } from './events.js';
import type { Random } from './random.js';
import type { OperatorModel, World } from './references.js';

type OddsItem = NonNullable<Dataset['odds']>[number];

/** Splits `total` over `parts` as evenly as integers allow (the first ones get the remainder). */
export function quotas(total: number, parts: number): number[] {
  if (parts === 0) return [];
  const base = Math.floor(total / parts);
  const extra = total - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * Splits `total` in proportion to integer `weights`, exactly: largest remainders get the
 * leftover units.
 */
export function weightedQuotas(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, n) => a + n, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    out[i] = (out[i] ?? 0) + 1;
    left--;
  }
  return out;
}

/** Every tenth event is a marquee game: operators quote it four times as deeply. */
const MARQUEE_EVERY = 10;
const MARQUEE_WEIGHT = 4;

/** A decimal price from a fair probability plus the operator's margin, with some noise. */
export function priceOf(random: Random, p: number, margin: number): number {
  const implied = p * (1 + margin) + random.normal() * 0.01;
  return Math.max(1.01, Math.round((1 / Math.min(0.99, Math.max(0.005, implied))) * 100) / 100);
}

const SIX_HOURS_S = 6 * 3600;

/** ISO strings of the last six hours, second by second: a million Date#toISOString calls cost seconds. */
function recentTimes(now: number): (secondsAgo: number) => string {
  const cache = new Map<number, string>();
  return (secondsAgo) => {
    let iso = cache.get(secondsAgo);
    if (iso === undefined) {
      iso = new Date(now - secondsAgo * 1000).toISOString();
      cache.set(secondsAgo, iso);
    }
    return iso;
  };
}

/**
 * Exactly `total` odds rows: each event gets its share (marquee games a larger one), quoted by 5 to 8 operators, main
 * markets first; alternate lines fill up an event whose markets run out.
 */
export function buildOdds(random: Random, world: World, events: readonly EventModel[], total: number, now: number): OddsItem[] {
  const odds: OddsItem[] = [];
  const perEvent = weightedQuotas(
    total,
    events.map((_, i) => (i % MARQUEE_EVERY === 0 ? MARQUEE_WEIGHT : 1)),
  );
  const timeAgo = recentTimes(now);
  events.forEach((event, index) => {
    const quota = perEvent[index] ?? 0;
    const operators = random.sample(world.operators, random.int(5, 8)).sort((a, b) => a.id - b.id);
    let emitted = 0;
    for (let round = 0; emitted < quota && round < 100; round++) {
      for (const selection of event.selections) {
        const quoted = round === 0 ? selection : alternate(selection, round);
        if (quoted === undefined) continue;
        for (const operator of operators) {
          if (emitted === quota) break;
          odds.push(row(random, odds.length + 1, event, quoted, operator, timeAgo));
          emitted++;
        }
        if (emitted === quota) break;
      }
    }
  });
  return odds;
}

/** The same selection `round` steps further out (over 230.5 → over 231.5), priced accordingly. */
function alternate(selection: Selection, round: number): Selection | undefined {
  if (selection.line === null) return undefined;
  const direction = selection.split === 'under' || selection.position === 'away' ? -1 : 1;
  const line = selection.line + direction * round;
  return { ...selection, line, p: Math.max(0.05, selection.p - 0.06 * round) };
}

function row(random: Random, id: number, event: EventModel, selection: Selection, operator: OperatorModel, timeAgo: (seconds: number) => string): OddsItem {
  const item: OddsItem = {
    id,
    event_id: event.id,
    operator_id: operator.id,
    betting_market_id: selection.market.id,
    position: selection.position,
    price_decimal: priceOf(random, selection.p, operator.margin),
    // A few prices are suspended, as books do around team news.
    status: random.chance(0.03) ? 'suspended' : 'open',
    updated_at: timeAgo(Math.floor(random.next() * SIX_HOURS_S)),
  };
  if (selection.line !== null) item.line = selection.line;
  return item;
}
