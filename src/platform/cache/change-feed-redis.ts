import { randomUUID } from 'node:crypto';
import { CHANGE_VERSION_NAMES, type ChangeVersionName } from '../db/schema.js';
import type { LifecycleLog } from '../lifecycle/log.js';
import type { RedisLink } from '../redis/redis-link.js';
import type { ChangeFeed } from './change-feed.js';

const CHANNEL = 'sportsdata:changes';

interface ChangeMessage {
  name: ChangeVersionName;
  version: number;
  /** The publishing node: it has told its own listeners already. */
  origin: string;
}

/**
 * The change feed across nodes through Redis pub/sub: after a change commits (`changed`), its
 * counter's new version is published; every other node that has not seen that version yet polls
 * the counters at once (a single poll, coalesced with any running one), instead of at its next
 * poll tick. The database stays the truth and the poll stays the fallback: a message lost while
 * Redis is away is caught up by the poll every CHANGE_POLL_MS, and by a poll whenever the
 * subscription is re-established.
 */
export function withRedisFanOut(feed: ChangeFeed, redis: RedisLink): ChangeFeed {
  const origin = randomUUID();
  let log: LifecycleLog | undefined;

  const catchUp = () => {
    feed.poll().catch((error: unknown) => log?.warn({ err: error instanceof Error ? error.message : String(error) }, 'change-feed poll failed'));
  };

  const publish = async (name: ChangeVersionName) => {
    const message: ChangeMessage = { name, version: feed.version(name), origin };
    await redis.publish(CHANNEL, JSON.stringify(message));
  };

  redis.subscribe(CHANNEL, (text) => {
    const message = parse(text);
    if (message === undefined || message.origin === origin) return;
    if (message.version > feed.version(message.name)) catchUp();
  });
  redis.onSubscribed(catchUp);

  return {
    ...feed,
    async changed(name) {
      await feed.changed(name);
      await publish(name);
    },
    async changedInProcess(name) {
      await feed.changedInProcess(name);
      await publish(name);
    },
    async start(startLog) {
      log = startLog;
      await feed.start(startLog);
      await redis.start(startLog);
    },
    async stop() {
      await feed.stop();
      await redis.stop();
    },
  };
}

function parse(text: string): ChangeMessage | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { name, version, origin } = value as Record<string, unknown>;
    const known = CHANGE_VERSION_NAMES.find((n) => n === name);
    if (known === undefined || typeof version !== 'number' || typeof origin !== 'string') return undefined;
    return { name: known, version, origin };
  } catch {
    return undefined;
  }
}
