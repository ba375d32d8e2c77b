/**
 * A small seeded PRNG (mulberry32): the same seed gives the same demo dataset on every
 * machine and Node version, which Math.random cannot promise.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** A float in [min, max). */
  between(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One of `items`, each as likely as its weight. */
  weighted<T>(items: readonly T[], weight: (item: T) => number): T;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[];
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };

  return {
    next,
    int,
    between: (min, max) => min + next() * (max - min),
    chance: (probability) => next() < probability,
    pick,
    weighted(items, weight) {
      const total = items.reduce((sum, item) => sum + weight(item), 0);
      let point = next() * total;
      for (const item of items) {
        point -= weight(item);
        if (point < 0) return item;
      }
      return pick(items);
    },
    normal() {
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    sample(items, count) {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]];
      }
      return copy.slice(0, count);
    },
  };
}

/** `Boston Celtics` → `boston-celtics`; accents dropped (`Atlético` → `atletico`). */
export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
