import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { RedisLink } from '../../platform/redis/redis-link.js';

/**
 * Places for open streams, per client (decision 0128). With Redis they are counted across every
 * node: each open stream holds a lease in a sorted set per client, renewed at every heartbeat, so
 * that the streams of a node that died without closing them stop counting once their lease runs
 * out. Without Redis — or while it is away — each node counts its own.
 *
 * A place's id starts with the time it was taken, zero-padded, so that ids sort in the order the
 * streams opened: a smaller cap keeps the oldest streams and ends the newest (decision 0158).
 */
export interface StreamSlots {
  /** Takes a place for a new stream of the client: the place's id, or undefined when the client holds `cap` already. */
  acquire(clientId: string, cap: number): Promise<string | undefined>;
  /** Frees the place of a stream that ended. */
  release(clientId: string, placeId: string): void;
  /** Renews the leases of the streams still open (every heartbeat, and when Redis is back). */
  renew(open: ReadonlyArray<{ clientId: string; placeId: string }>): void;
  /**
   * Of `own` (places of streams open on this node), those past the client's first `cap` places
   * across the nodes, in the order they were taken; their places are freed. Every node asking
   * after a downgrade ranks the places alike, so together they keep exactly the oldest `cap`.
   */
  beyondCap(clientId: string, cap: number, own: readonly string[]): Promise<string[]>;
  /** Told whenever Redis is reachable again: what it held may be gone (restarted without persistence). */
  onRestored(listener: () => void): void;
}

const KEY_PREFIX = 'sportsdata:streams:';
/** Wide enough for any epoch millisecond: ids of one width sort as their times do. */
const TIME_DIGITS = 15;

/**
 * Drops the expired leases, and adds one when fewer than the cap remain; the time is Redis's own,
 * so no two nodes' clocks are compared. KEYS[1] the client's set; ARGV stream id, cap, lease ms.
 * Returns the place's id, or 0.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
local place = string.format('%0${TIME_DIGITS}d', now) .. '-' .. ARGV[1]
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), place)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return place`;

/** KEYS[1] the client's set; ARGV lease ms, then the places to renew. */
const RENEW = `
local t = redis.call('TIME')
local expiry = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], expiry, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/**
 * KEYS[1] the client's set; ARGV cap, lease ms, then this node's places. Counts this node's
 * places in first (one taken while Redis was away may be missing), ranks every live place by id
 * (the order they were taken), and frees and returns this node's places past the cap.
 */
const BEYOND_CAP = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local mine = {}
for i = 3, #ARGV do
  mine[ARGV[i]] = true
  redis.call('ZADD', KEYS[1], 'NX', now + tonumber(ARGV[2]), ARGV[i])
end
local places = redis.call('ZRANGE', KEYS[1], 0, -1)
table.sort(places)
local beyond = {}
for i = tonumber(ARGV[1]) + 1, #places do
  if mine[places[i]] then
    beyond[#beyond + 1] = places[i]
    redis.call('ZREM', KEYS[1], places[i])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return beyond`;

const RELEASE = `return redis.call('ZREM', KEYS[1], ARGV[1])`;

export function createStreamSlots(options: { redis: RedisLink | undefined; heartbeatMs: number; clock: Clock }): StreamSlots {
  const { redis } = options;
  // Three heartbeats: a node that misses one renewal (a slow tick, a Redis blip) keeps its places.
  const leaseMs = 3 * options.heartbeatMs;
  /** This node's places by client, in the order they were taken. */
  const local = new Map<string, Set<string>>();
  const own = (clientId: string) => local.get(clientId) ?? new Set<string>();
  const placeOf = (now: number) => `${String(now).padStart(TIME_DIGITS, '0')}-${randomUUID()}`;

  const takeLocally = (clientId: string, cap: number): string | undefined => {
    const places = own(clientId);
    if (places.size >= cap) return undefined;
    const place = placeOf(options.clock.now());
    local.set(clientId, places.add(place));
    return place;
  };
  const freeLocally = (clientId: string, placeId: string) => {
    const places = own(clientId);
    places.delete(placeId);
    if (places.size === 0) local.delete(clientId);
  };
  /** This node's count decides, as without Redis: the newest of its own past the cap. */
  const beyondLocally = (clientId: string, cap: number, open: readonly string[]): string[] => {
    const mine = new Set(open);
    const beyond = [...own(clientId)].filter((place) => mine.has(place)).slice(cap);
    for (const place of beyond) freeLocally(clientId, place);
    return beyond;
  };

  return {
    async acquire(clientId, cap) {
      if (redis === undefined) return takeLocally(clientId, cap);
      let place: unknown;
      try {
        place = await redis.evaluate(ACQUIRE, [KEY_PREFIX + clientId], [randomUUID(), cap, leaseMs]);
      } catch {
        // Redis away: this node's own count decides, as without Redis.
        return takeLocally(clientId, cap);
      }
      if (typeof place !== 'string') return undefined;
      local.set(clientId, own(clientId).add(place));
      return place;
    },
    release(clientId, placeId) {
      freeLocally(clientId, placeId);
      redis?.evaluate(RELEASE, [KEY_PREFIX + clientId], [placeId]).catch(() => {});
    },
    renew(open) {
      if (redis === undefined) return;
      const byClient = new Map<string, string[]>();
      for (const { clientId, placeId } of open) byClient.set(clientId, [...(byClient.get(clientId) ?? []), placeId]);
      // A lease taken while Redis was away is added here, once it is back.
      for (const [clientId, places] of byClient) redis.evaluate(RENEW, [KEY_PREFIX + clientId], [leaseMs, ...places]).catch(() => {});
    },
    async beyondCap(clientId, cap, open) {
      if (redis === undefined) return beyondLocally(clientId, cap, open);
      let beyond: unknown;
      try {
        beyond = await redis.evaluate(BEYOND_CAP, [KEY_PREFIX + clientId], [cap, leaseMs, ...open]);
      } catch {
        return beyondLocally(clientId, cap, open);
      }
      const places = Array.isArray(beyond) ? beyond.filter((place): place is string => typeof place === 'string') : [];
      for (const place of places) freeLocally(clientId, place);
      return places;
    },
    onRestored(listener) {
      redis?.onReady(listener);
    },
  };
}
