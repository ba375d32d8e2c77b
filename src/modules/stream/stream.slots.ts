import type { RedisLink } from '../../platform/redis/redis-link.js';

/**
 * Places for open streams, per client (decision 0128). With Redis they are counted across every
 * node: each open stream holds a lease in a sorted set per client, renewed at every heartbeat, so
 * that the streams of a node that died without closing them stop counting once their lease runs
 * out. Without Redis — or while it is away — each node counts its own.
 */
export interface StreamSlots {
  /** Takes a place for a new stream of the client; false when the client holds `cap` already. */
  acquire(clientId: string, streamId: string, cap: number): Promise<boolean>;
  /** Frees the place of a stream that ended. */
  release(clientId: string, streamId: string): void;
  /** Renews the leases of the streams still open (every heartbeat). */
  renew(open: ReadonlyArray<{ clientId: string; streamId: string }>): void;
}

const KEY_PREFIX = 'sportsdata:streams:';

/**
 * Drops the expired leases, and adds one when fewer than the cap remain; the time is Redis's own,
 * so no two nodes' clocks are compared. KEYS[1] the client's set; ARGV member, cap, lease ms.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** KEYS[1] the client's set; ARGV lease ms, then the members to renew. */
const RENEW = `
local t = redis.call('TIME')
local expiry = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], expiry, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

const RELEASE = `return redis.call('ZREM', KEYS[1], ARGV[1])`;

export function createStreamSlots(options: { redis: RedisLink | undefined; heartbeatMs: number }): StreamSlots {
  const { redis } = options;
  // Three heartbeats: a node that misses one renewal (a slow tick, a Redis blip) keeps its places.
  const leaseMs = 3 * options.heartbeatMs;
  const local = new Map<string, Set<string>>();
  const own = (clientId: string) => local.get(clientId) ?? new Set<string>();

  const takeLocally = (clientId: string, streamId: string, cap: number): boolean => {
    const streams = own(clientId);
    if (streams.size >= cap) return false;
    local.set(clientId, streams.add(streamId));
    return true;
  };

  return {
    async acquire(clientId, streamId, cap) {
      if (redis === undefined) return takeLocally(clientId, streamId, cap);
      let granted: boolean;
      try {
        granted = (await redis.evaluate(ACQUIRE, [KEY_PREFIX + clientId], [streamId, cap, leaseMs])) === 1;
      } catch {
        // Redis away: this node's own count decides, as without Redis.
        return takeLocally(clientId, streamId, cap);
      }
      if (granted) local.set(clientId, own(clientId).add(streamId));
      return granted;
    },
    release(clientId, streamId) {
      const streams = own(clientId);
      streams.delete(streamId);
      if (streams.size === 0) local.delete(clientId);
      redis?.evaluate(RELEASE, [KEY_PREFIX + clientId], [streamId]).catch(() => {});
    },
    renew(open) {
      if (redis === undefined) return;
      const byClient = new Map<string, string[]>();
      for (const { clientId, streamId } of open) byClient.set(clientId, [...(byClient.get(clientId) ?? []), streamId]);
      // A lease taken while Redis was away is added here, once it is back.
      for (const [clientId, streamIds] of byClient) redis.evaluate(RENEW, [KEY_PREFIX + clientId], [leaseMs, ...streamIds]).catch(() => {});
    },
  };
}
