/** One window of `RateLimit-Policy`: `"minute";q=600;w=60`. */
export interface RateLimitPolicy {
  /** The window's name: `minute` or `day`. */
  name: string;
  /** Requests allowed in the window. */
  quota: number;
  /** The window's length in seconds. */
  windowSeconds: number;
}

/** The window of `RateLimit` closest to running out: `"minute";r=599;t=42`. */
export interface RateLimitWindow {
  /** The window's name: `minute` or `day`. */
  name: string;
  /** Requests left in it. */
  remaining: number;
  /** Seconds until it resets. */
  resetSeconds: number;
}

/**
 * Where the account stood in its limits, as the last answer that said so told it (see "Rate
 * limits and quotas" in the API documentation).
 */
export interface RateLimitState {
  /** `X-RateLimit-Limit`: requests per minute. */
  limit: number | undefined;
  /** `X-RateLimit-Remaining`: requests left in the current minute. */
  remaining: number | undefined;
  /** `X-RateLimit-Reset`: seconds until the current minute ends. */
  resetSeconds: number | undefined;
  /** `RateLimit`: the window closest to running out. */
  closest: RateLimitWindow | undefined;
  /** `RateLimit-Policy`: every window in force. */
  policies: RateLimitPolicy[];
  /** `Retry-After` of a 429 or 503, in seconds. */
  retryAfterSeconds: number | undefined;
  /** The raw header values, as they came. */
  headers: Record<string, string>;
  /** When the answer came (the client's clock). */
  observedAt: Date;
}

const HEADERS = ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];

const integer = (text: string | null | undefined): number | undefined => {
  if (text === null || text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  return Number(text.trim());
};

/** The parameters of one item of a structured field list: `"minute";q=600;w=60` → minute, {q: 600, w: 60}. */
function item(text: string): { name: string; params: Record<string, number | undefined> } {
  const [name = '', ...params] = text.split(';').map((part) => part.trim());
  return {
    name: name.replace(/^"|"$/g, ''),
    params: Object.fromEntries(params.map((p) => p.split('=')).map(([key = '', value]) => [key.trim(), integer(value)])),
  };
}

/** `Retry-After` in seconds: delay-seconds, or an HTTP date relative to `now`. */
export function retryAfterSeconds(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const seconds = integer(value);
  if (seconds !== undefined) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The limits an answer's headers state, or undefined when it states none. */
export function rateLimitOf(headers: Headers, now: number): RateLimitState | undefined {
  const raw = Object.fromEntries(HEADERS.flatMap((name) => (headers.get(name) === null ? [] : [[name, headers.get(name) ?? '']])));
  if (!('ratelimit' in raw) && !('x-ratelimit-limit' in raw)) return undefined;
  const closest = raw.ratelimit === undefined ? undefined : item(raw.ratelimit);
  const policies = (raw['ratelimit-policy'] ?? '')
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(item)
    .flatMap(({ name, params }) => (params.q === undefined || params.w === undefined ? [] : [{ name, quota: params.q, windowSeconds: params.w }]));
  return {
    limit: integer(raw['x-ratelimit-limit']),
    remaining: integer(raw['x-ratelimit-remaining']),
    resetSeconds: integer(raw['x-ratelimit-reset']),
    closest:
      closest?.params.r === undefined || closest.params.t === undefined
        ? undefined
        : { name: closest.name, remaining: closest.params.r, resetSeconds: closest.params.t },
    policies,
    retryAfterSeconds: retryAfterSeconds(headers.get('retry-after'), now),
    headers: raw,
    observedAt: new Date(now),
  };
}
