import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRandom } from '../../src/modules/demo/generator/random.js';

/**
 * A local upstream answering in The Odds API v4's shape (docs/sources/the-odds-api.md), for the
 * feed bench's `--upstream`: the server under test polls it (UPSTREAM_URL…) and imports what moved
 * beside the bench's own feed. Until `play` names the teams it answers no events; then one event
 * per pair of teams, a day apart, priced by three books in h2h, spreads and totals, and every odds
 * answer moves `MOVES_PER_ANSWER` prices, so that each poll has something to import.
 */
export interface Upstream {
  url: string;
  apiKey: string;
  /** The sport key it answers for (UPSTREAM_SPORTS). */
  sport: string;
  /** The environment that points the server under test at it. */
  env: Record<string, string>;
  /** Starts answering events between these teams (the demo's names, so that they match stored teams). */
  play(teams: readonly string[]): void;
  /** Odds answers served, and prices moved, so far. */
  served(): { odds: number; moved: number };
  close(): Promise<void>;
}

/** The server's poll interval, the least its configuration takes. */
export const UPSTREAM_INTERVAL_S = 5;
const MOVES_PER_ANSWER = 6;
const EVENTS = 10;
const SPORT = 'soccer_epl';
const BOOKS = [
  { key: 'pinnacle', title: 'Pinnacle' },
  { key: 'williamhill', title: 'William Hill' },
  { key: 'bet365', title: 'Bet365' },
];

interface Outcome {
  name: string;
  price: number;
  point?: number;
}
interface Market {
  key: 'h2h' | 'spreads' | 'totals';
  last_update: string;
  outcomes: Outcome[];
}
interface UpstreamEvent {
  id: string;
  sport_key: string;
  sport_title: string;
  commence_time: string;
  home_team: string;
  away_team: string;
  bookmakers: Array<{ key: string; title: string; last_update: string; markets: Market[] }>;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function eventsOf(teams: readonly string[], now: Date): UpstreamEvent[] {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z');
  const events: UpstreamEvent[] = [];
  for (let i = 0; i + 1 < teams.length && events.length < EVENTS; i += 2) {
    const [home, away] = [teams[i] ?? '', teams[i + 1] ?? ''];
    const kickOff = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1 + events.length, 15));
    const markets = (): Market[] => [
      { key: 'h2h', last_update: stamp, outcomes: [{ name: home, price: 2.1 }, { name: away, price: 3.4 }, { name: 'Draw', price: 3.3 }] },
      { key: 'spreads', last_update: stamp, outcomes: [{ name: home, price: 1.95, point: -0.5 }, { name: away, price: 1.9, point: 0.5 }] },
      { key: 'totals', last_update: stamp, outcomes: [{ name: 'Over', price: 1.9, point: 2.5 }, { name: 'Under', price: 1.95, point: 2.5 }] },
    ];
    events.push({
      id: `bench${String(events.length).padStart(27, '0')}`,
      sport_key: SPORT,
      sport_title: 'EPL',
      commence_time: kickOff.toISOString().replace(/\.\d+Z$/, 'Z'),
      home_team: home,
      away_team: away,
      bookmakers: BOOKS.map((book) => ({ ...book, last_update: stamp, markets: markets() })),
    });
  }
  return events;
}

export async function startUpstream(): Promise<Upstream> {
  const apiKey = 'bench0upstream0key0000000000000000';
  const random = createRandom(7);
  let events: UpstreamEvent[] = [];
  let [odds, moved] = [0, 0];

  /** Moves a few prices of random outcomes, each stamped now, as a live upstream does between two polls. */
  function move(): void {
    const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    for (let n = 0; n < MOVES_PER_ANSWER && events.length > 0; n += 1) {
      const book = random.pick(random.pick(events).bookmakers);
      const market = random.pick(book.markets);
      const outcome = random.pick(market.outcomes);
      outcome.price = Math.max(1.01, round2(outcome.price + (random.chance(0.5) ? 0.01 : -0.01) * (1 + Math.floor(random.next() * 5))));
      market.last_update = book.last_update = stamp;
      moved += 1;
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const send = (status: number, body: unknown) =>
      void res.writeHead(status, { 'content-type': 'application/json', 'x-requests-remaining': '100000', 'x-requests-used': String(odds) }).end(JSON.stringify(body));
    if (url.searchParams.get('apiKey') !== apiKey) return send(401, { message: 'Invalid API key' });
    if (url.pathname === `/v4/sports/${SPORT}/odds`) {
      odds += 1;
      move();
      return send(200, events);
    }
    if (url.pathname === `/v4/sports/${SPORT}/scores`) {
      return send(200, events.map(({ id, sport_key, sport_title, commence_time, home_team, away_team }) => ({ id, sport_key, sport_title, commence_time, completed: false, home_team, away_team, scores: null, last_update: null })));
    }
    return send(404, { message: 'Unknown sport' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    apiKey,
    sport: SPORT,
    env: { UPSTREAM_URL: url, UPSTREAM_API_KEY: apiKey, UPSTREAM_SPORTS: SPORT, UPSTREAM_INTERVAL_S: String(UPSTREAM_INTERVAL_S) },
    play(teams) {
      events = eventsOf(teams, new Date());
    },
    served: () => ({ odds, moved }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
