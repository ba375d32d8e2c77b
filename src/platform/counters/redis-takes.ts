import type { WindowedCounter } from './counter-store.js';
import { windowEnd, windowOf } from './counter-store.js';
import type { Owed } from './leases.js';

/**
 * Grants, decided inside Redis. First the events this node gives back (granted ahead under a limit
 * that has changed since): each count goes down by them, never below 0 (a key that expired or a
 * Redis that lost its data has nothing to give back to). Then the groups: a group is the takes of
 * one batch on the same counters in the same windows (one client's requests): it needs n events of
 * every counter, of which the node holds some already (`held`, granted ahead earlier), and s takes
 * are served: as many as every capped counter has events for, held or room left (at most n) — what
 * n takes one after the other would get, so a refused take counts nothing. Each counter grows by
 * what its s takes need beyond the held ones. When the whole group is served, a
 * leaseable counter grants more ahead of time: a tenth of the room left, at most `extra`, so that
 * a lease shrinks as the window fills, down to nothing. No other command runs meanwhile, so
 * nodes can never together pass a limit (a GET-then-INCR from the node would let two nodes
 * both read 59 of 60 and both count).
 * ARGV[1]: the number r of counts given back, then r amounts (KEYS[1..r] their keys); then the
 * number of groups; per group n and its number of counters m, then per counter held, extra,
 * limit (-1: none), and the time to live in ms, set when the window's first event creates the
 * key. KEYS after the r: every group's counters (carrying their window), in order.
 * Returns per counter of each group: its grant, then its count after it.
 */
export const GRANTS = `
local r = tonumber(ARGV[1])
for j = 1, r do
  local back = math.min(tonumber(redis.call('GET', KEYS[j]) or '0'), tonumber(ARGV[1 + j]))
  if back > 0 then redis.call('DECRBY', KEYS[j], back) end
end
local out = {}
local k = r + 1
local a = r + 3
for g = 1, tonumber(ARGV[r + 2]) do
  local n = tonumber(ARGV[a])
  local m = tonumber(ARGV[a + 1])
  a = a + 2
  local counts = {}
  local rooms = {}
  local s = n
  for i = 0, m - 1 do
    counts[i] = tonumber(redis.call('GET', KEYS[k + i]) or '0')
    local limit = tonumber(ARGV[a + 4 * i + 2])
    if limit >= 0 then
      rooms[i] = math.max(limit - counts[i], 0)
      s = math.min(s, tonumber(ARGV[a + 4 * i]) + rooms[i])
    end
  end
  for i = 0, m - 1 do
    local grant = math.max(s - tonumber(ARGV[a + 4 * i]), 0)
    local extra = tonumber(ARGV[a + 4 * i + 1])
    if s == n and extra > 0 then
      if rooms[i] then
        grant = math.min(math.max(grant, math.min(extra, math.floor(rooms[i] / 10))), rooms[i])
      else
        grant = math.max(grant, extra)
      end
    end
    if grant > 0 then
      counts[i] = redis.call('INCRBY', KEYS[k + i], grant)
      if counts[i] == grant then redis.call('PEXPIRE', KEYS[k + i], ARGV[a + 4 * i + 3]) end
    end
    out[#out + 1] = grant
    out[#out + 1] = counts[i]
  end
  k = k + m
  a = a + 4 * m
end
return out
`;

/** Every key of this service starts with this, so that it can share a Redis with others. */
const PREFIX = 'sportsdata:';
/** Keys outlive their window by this much: node clocks disagree by a little. */
const EXPIRY_SLACK_MS = 60_000;
/** The most events granted ahead at once: a node holds at most about this many of a window unused. */
export const MAX_LEASE = 1000;

export const keyOf = (counter: Pick<WindowedCounter, 'key' | 'windowMs'>, now: number) => windowKey(counter.key, windowOf(now, counter.windowMs));

const windowKey = (key: string, window: number) => `${PREFIX}${key}:${window}`;

/**
 * Sets the epoch unless there is one, and returns it: a value Redis keeps for as long as it keeps
 * its data. A node that finds another than it saw before talks to a Redis that lost the counts.
 */
export const EPOCH = `
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  epoch = ARGV[1]
  redis.call('SET', KEYS[1], epoch)
end
return epoch
`;

export const EPOCH_KEY = `${PREFIX}epoch`;

/** Raises each count to at least its seed (ARGV: per key the seed and the time to live in ms). */
export const SEEDS = `
for i = 1, #KEYS do
  local seed = tonumber(ARGV[2 * i - 1])
  if seed > tonumber(redis.call('GET', KEYS[i]) or '0') then redis.call('SET', KEYS[i], seed, 'PX', ARGV[2 * i]) end
end
return #KEYS
`;

/** The time to live of a key of the window of `now`: its end, plus the slack. */
export const ttlOf = (windowMs: number, now: number) => windowEnd(now, windowMs) - now + EXPIRY_SLACK_MS;

/** One group of a batch: `asked` takes on the same counters, in the same windows. */
export interface TakeGroup {
  counters: readonly WindowedCounter[];
  now: number;
  keys: string[];
  asked: number;
  /** Per counter: the events this node holds for the group (pledged to it until the answer). */
  held: number[];
}

/** The script's KEYS and ARGV for the counts given back and these groups. */
export function scriptInput(returns: readonly Owed[], groups: readonly TakeGroup[]): { keys: string[]; args: number[] } {
  const keys = returns.map((debt) => windowKey(debt.key, debt.window));
  const args = [returns.length, ...returns.map((debt) => debt.count), groups.length];
  for (const { counters, now, keys: groupKeys, asked, held } of groups) {
    args.push(asked, counters.length);
    keys.push(...groupKeys);
    counters.forEach((counter, i) => {
      const limit = Number.isFinite(counter.limit) ? counter.limit : -1;
      args.push(held[i] ?? 0, counter.leaseable === true ? MAX_LEASE : 0, limit, ttlOf(counter.windowMs, now));
    });
  }
  return { keys, args };
}

/** The script's answer per counter of each group: the grant and the count after it; undefined when malformed. */
export function scriptOutput(groups: readonly TakeGroup[], reply: unknown): Array<Array<{ granted: number; after: number }>> | undefined {
  const expected = groups.reduce((sum, group) => sum + 2 * group.counters.length, 0);
  if (!Array.isArray(reply) || reply.length !== expected) return undefined;
  const numbers = reply.map(Number);
  if (!numbers.every(Number.isInteger)) return undefined;
  let at = 0;
  return groups.map((group) =>
    group.counters.map(() => {
      const answer = { granted: numbers[at] ?? 0, after: numbers[at + 1] ?? 0 };
      at += 2;
      return answer;
    }),
  );
}
