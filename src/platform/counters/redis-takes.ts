import type { WindowedCounter } from './counter-store.js';
import { windowEnd, windowOf } from './counter-store.js';

/**
 * Grants, decided inside Redis. A group is the takes of one batch on the same counters in the
 * same windows (one client's requests): it needs n events of every counter, of which the node
 * holds some already (`held`, granted ahead earlier), and s takes are served: as many as every
 * capped counter has events for, held or room left (at most n) — what n takes one after the
 * other would get, so a refused take counts nothing. Each counter grows by what its s takes
 * need beyond the held ones. When the whole group is served, a
 * leaseable counter grants more ahead of time: a tenth of the room left, at most `extra`, so that
 * a lease shrinks as the window fills, down to nothing. No other command runs meanwhile, so
 * nodes can never together pass a limit (a GET-then-INCR from the node would let two nodes
 * both read 59 of 60 and both count).
 * ARGV[1]: the number of groups; per group n and its number of counters m, then per counter
 * held, extra, limit (-1: none), and the time to live in ms, set when the window's first event
 * creates the key. KEYS: every group's counters (carrying their window), in order.
 * Returns per counter of each group: its grant, then its count after it.
 */
export const GRANTS = `
local out = {}
local k = 1
local a = 2
for g = 1, tonumber(ARGV[1]) do
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

export const keyOf = (counter: WindowedCounter, now: number) => `${PREFIX}${counter.key}:${windowOf(now, counter.windowMs)}`;

/** One group of a batch: `asked` takes on the same counters, in the same windows. */
export interface TakeGroup {
  counters: readonly WindowedCounter[];
  now: number;
  keys: string[];
  asked: number;
  /** Per counter: the events this node holds for the group (pledged to it until the answer). */
  held: number[];
}

/** The script's KEYS and ARGV for these groups. */
export function scriptInput(groups: readonly TakeGroup[]): { keys: string[]; args: number[] } {
  const keys: string[] = [];
  const args: number[] = [groups.length];
  for (const { counters, now, keys: groupKeys, asked, held } of groups) {
    args.push(asked, counters.length);
    keys.push(...groupKeys);
    counters.forEach((counter, i) => {
      const limit = Number.isFinite(counter.limit) ? counter.limit : -1;
      args.push(held[i] ?? 0, counter.leaseable === true ? MAX_LEASE : 0, limit, windowEnd(now, counter.windowMs) - now + EXPIRY_SLACK_MS);
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
