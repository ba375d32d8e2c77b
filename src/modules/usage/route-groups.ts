/**
 * The groups usage is reported by: the first path segment after /v1/, or the kind of data a
 * historical file or a stream carries (/v1/historical/events → events, /v1/historical/odds.csv and
 * /v1/stream/odds → odds).
 */
export const ROUTE_GROUPS = ['references', 'events', 'odds', 'trends', 'account'] as const;
export type RouteGroup = (typeof ROUTE_GROUPS)[number];

/**
 * The group whose requests never count against the daily quota: /v1/account/* counts against the
 * minute only (the limiter's rule), so that a client can always read its usage and keys.
 */
export const UNCHARGED_GROUP: RouteGroup = 'account';

const INDEX = new Map<string, number>(ROUTE_GROUPS.map((group, i) => [group, i]));

/**
 * The group of a route template (`/v1/references/teams` → references), as an index into
 * ROUTE_GROUPS; -1 for a route outside them. Memoised: there are a few dozen templates, and
 * this runs on every charged request.
 */
export function createGroupOf(): (route: string | undefined) => number {
  const known = new Map<string, number>();
  return (route) => {
    if (route === undefined) return -1;
    let index = known.get(route);
    if (index === undefined) {
      const segment = /^\/v1\/(?:historical\/|stream\/)?([a-z]+)/.exec(route)?.[1];
      index = segment === undefined ? -1 : (INDEX.get(segment) ?? -1);
      known.set(route, index);
    }
    return index;
  };
}

/** A UTC day as YYYY-MM-DD. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export const DAY_MS = 86_400_000;
