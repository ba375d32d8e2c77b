import { Redis, type RedisOptions } from 'ioredis';
import type { LifecycleLog } from '../lifecycle/log.js';

/** 'ok' while connected; 'degraded' while ioredis reconnects (the node keeps serving meanwhile). */
export type RedisState = 'ok' | 'degraded';

/**
 * One node's connection to Redis for pub/sub and short scripts: a command connection (publish,
 * EVAL) and a subscribing connection (a subscribed connection can do nothing else). Redis is never required: a publish while it is
 * away is dropped (its listeners catch up by other means), and ioredis reconnects for ever.
 * Constructing it connects nothing; `start` does.
 */
export interface RedisLink {
  state(): RedisState;
  /** Sends `message`; never rejects (dropped while Redis is away or before `start`). */
  publish(channel: string, message: string): Promise<void>;
  /** Listens on `channel` from `start` on, also across reconnections. */
  subscribe(channel: string, onMessage: (message: string) => void): void;
  /** Called whenever the subscription is (re)established: messages sent meanwhile were missed. */
  onSubscribed(listener: () => void): void;
  /**
   * Called whenever the command connection is (re)established: what Redis held may be gone (a
   * restart without persistence), and whoever keeps state there may want to write it again.
   */
  onReady(listener: () => void): void;
  /**
   * Runs a Lua script (EVAL) on the command connection, atomically in Redis. Rejects at once while
   * Redis is away or before `start`: the caller decides what to do without it.
   */
  evaluate(script: string, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown>;
  /** Connects; waits up to `waitMs` for the subscription, then serves on without it. */
  start(log: LifecycleLog, waitMs?: number): Promise<void>;
  stop(): Promise<void>;
}

// Reconnect quickly at first, then every 2 s: an outage costs little, and recovery is noticed soon.
const retryStrategy = (attempt: number) => Math.min(attempt * 100, 2000);

export function createRedisLink(url: string): RedisLink {
  const common: RedisOptions = { lazyConnect: true, retryStrategy, connectTimeout: 2000 };
  // A command for an unreachable Redis fails at once instead of queueing: nothing waits on Redis.
  const publisher = new Redis(url, { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  const subscriber = new Redis(url, { ...common, autoResubscribe: true });
  const channels = new Map<string, (message: string) => void>();
  const subscribedListeners: Array<() => void> = [];
  const readyListeners: Array<() => void> = [];
  const state = (): RedisState => (publisher.status === 'ready' && subscriber.status === 'ready' ? 'ok' : 'degraded');
  const outages = logOutages([publisher, subscriber], state);
  subscriber.on('message', (channel: string, message: string) => channels.get(channel)?.(message));
  subscriber.on('ready', () => {
    for (const listener of subscribedListeners) listener();
  });
  publisher.on('ready', () => {
    for (const listener of readyListeners) listener();
  });

  return {
    state,
    async publish(channel, message) {
      if (!outages.started) return;
      try {
        await publisher.publish(channel, message);
      } catch {
        // Redis away: dropped; the 'error' event has told the log.
      }
    },
    async evaluate(script, keys, args) {
      if (!outages.started) throw new Error('Redis is not started');
      return publisher.eval(script, keys.length, ...keys, ...args);
    },
    subscribe(channel, onMessage) {
      channels.set(channel, onMessage);
    },
    onSubscribed(listener) {
      subscribedListeners.push(listener);
    },
    onReady(listener) {
      readyListeners.push(listener);
    },
    async start(startLog, waitMs = 1000) {
      outages.log = startLog;
      outages.started = true;
      // Failed first attempts reject these promises, but ioredis keeps retrying: not an error here.
      publisher.connect().catch(() => {});
      subscriber.connect().catch(() => {});
      // Queued until connected, and resubscribed by ioredis after every reconnection.
      const subscribed = channels.size > 0 ? subscriber.subscribe(...channels.keys()).then(() => {}) : Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
      await Promise.race([subscribed.catch(() => {}), waited]);
      clearTimeout(timer);
      if (state() === 'degraded') outages.down();
    },
    async stop() {
      outages.started = false;
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}

/** Whether the link is started (only a started link logs), where it logs, and its outage as the log last told it. */
interface Outages {
  started: boolean;
  log: LifecycleLog | undefined;
  down(error?: Error): void;
}

/** Logs each outage of the connections once, and its end once both are back. */
function logOutages(connections: readonly Redis[], state: () => RedisState): Outages {
  let degradedLogged = false;
  const outages: Outages = {
    started: false,
    log: undefined,
    down(error) {
      // One warning per outage: ioredis retries every few seconds and each attempt errors again.
      if (!outages.started || degradedLogged) return;
      degradedLogged = true;
      outages.log?.warn(
        { redis: 'degraded', err: error?.message },
        'Redis is unreachable: changes reach this node by the database poll until it is back (reconnecting)',
      );
    },
  };
  const up = () => {
    if (state() !== 'ok' || !degradedLogged) return;
    degradedLogged = false;
    outages.log?.info({ redis: 'ok' }, 'Redis is reachable again');
  };
  for (const connection of connections) {
    // Without an 'error' listener ioredis prints every failed attempt to the console.
    connection.on('error', (error: Error) => outages.down(error));
    connection.on('close', () => outages.down());
    connection.on('ready', up);
  }
  return outages;
}
