import type { AddressInfo } from 'node:net';
import type { ManualClock } from '../../../../src/platform/clock.js';
import { type Harness, harness } from '../../../../test/helpers/harness.js';

/** A clock that runs with real time, or holds still where a test needs an exact reading. */
export interface RunningClock extends ManualClock {
  /** Sets the clock to `ms` and holds it there (a busy machine's delays move nothing) until `set` runs it again. */
  hold(ms: number): void;
}

/**
 * A clock that runs with real time from wherever it is set: the server counts its rate-limit
 * minutes by it, so a test sets it a second before a minute ends and a real wait of that second
 * crosses into the next one. `advance` jumps ahead, as if that much time had passed.
 */
export function runningClock(start = Date.now()): RunningClock {
  let offset = start - Date.now();
  let held: number | undefined;
  return {
    now: () => held ?? Date.now() + offset,
    advance: (ms) => {
      if (held === undefined) offset += ms;
      else held += ms;
    },
    set: (ms) => {
      held = undefined;
      offset = ms - Date.now();
    },
    hold: (ms) => {
      held = ms;
    },
  };
}

export interface Server {
  /** The harness the server runs in: its clients, imports and admin calls go through the app, as a test's do. */
  t: Harness;
  /** `http://127.0.0.1:<port>`: the real app, listening. */
  baseUrl: string;
  /** How many requests the server received for `METHOD /path` (query strings aside), read from its own log. */
  received(method: string, path: string): number;
  /** An admin API call with the test admin token; asserts a 2xx. */
  admin(method: 'PATCH' | 'POST', url: string, payload: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * The real server over HTTP, as a client's process reaches it. The SDK's tests run it on SQLite
 * only: which database the server uses is not the SDK's concern, and the server's own suite runs
 * every test on both.
 */
export async function startServer(options: { clock?: ManualClock; env?: Record<string, string> } = {}): Promise<Server> {
  const t = await harness({ dialect: 'sqlite', ...(options.clock ? { clock: options.clock } : {}), ...(options.env ? { env: options.env } : {}) });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return {
    t,
    baseUrl: `http://127.0.0.1:${port}`,
    received(method, path) {
      return t
        .logs()
        .split('\n')
        .filter((line) => line.includes('"incoming request"'))
        .map((line) => JSON.parse(line) as { req?: { method?: string; url?: string } })
        .filter(({ req }) => req?.method === method && req.url?.split('?')[0] === path).length;
    },
    async admin(method, url, payload) {
      const res = await t.admin.request({ method, url, payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
      return res.json();
    },
    close: () => t.close(),
  };
}

/** Imports one league of `count` teams (ids 1001…), through the admin import API. */
export async function importLeague(server: Server, count: number): Promise<void> {
  await server.t.import({
    sports: [{ id: 1, key: 'basketball', name: 'Basketball' }],
    leagues: [{ id: 10, key: 'nba', name: 'NBA', sport_id: 1 }],
    teams: Array.from({ length: count }, (_, i) => ({ id: 1001 + i, key: `team-${i + 1}`, name: `Team ${i + 1}`, league_id: 10 })),
  });
}

export interface Captured {
  method: string;
  url: string;
  headers: Record<string, string>;
  status: number;
  /** The answer's body, for the token endpoints only (where the tokens come from). */
  body?: string;
}

/** A `fetch` that records every request the SDK makes, and the tokens it was given. */
export function capturingFetch(): { fetch: typeof fetch; requests: Captured[] } {
  const requests: Captured[] = [];
  const capture: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const response = await fetch(input, init);
    const entry: Captured = { method: init?.method ?? 'GET', url, headers: { ...(init?.headers as Record<string, string>) }, status: response.status };
    if (/\/v1\/(auth|oauth)\//.test(url)) entry.body = await response.clone().text();
    requests.push(entry);
    return response;
  };
  return { fetch: capture, requests };
}
