import { afterAll, beforeAll } from 'vitest';
import type { Dataset } from '../../src/modules/import/import.schemas.js';
import type { DialectName } from '../../src/platform/db/database.js';
import type { TestApp } from '../helpers/app.js';
import { onboardClient } from '../helpers/clients.js';
import { type Caller, type Harness, harness } from '../helpers/harness.js';

type OddsItem = NonNullable<Dataset['odds']>[number];

/** A price change as the history list, the files and the stream give it. */
/** A change of a file without its last two columns, the odds row's grade and closing price: as the history list shows it. */
export function withoutGrade<C extends object>(change: C & { outcome?: unknown; closing_price?: unknown }): Omit<C, 'outcome' | 'closing_price'> {
  const { outcome: _outcome, closing_price: _closing, ...rest } = change;
  return rest;
}

export interface Change {
  id: number;
  odds_id: number;
  event_id: number;
  operator_id: number;
  betting_market_id: number;
  position: string;
  changed_at: string;
  price_decimal: { from: number | null; to: number };
  line: { from: number | null; to: number | null };
  status: { from: string | null; to: string };
}

/**
 * A league with two events and the odds the history tests move: event 100 (NBA, started,
 * final 112–104) with odds 1–4, event 200 (NBA, upcoming) with odds 5–6; event 300 of another
 * league. Odds 3 and 4 have a line.
 */
export function historyDataset(now: number): Required<Pick<Dataset, 'sports' | 'leagues' | 'teams' | 'operators' | 'betting_markets' | 'events' | 'odds'>> {
  const at = (hours: number) => new Date(now + hours * 3600_000).toISOString();
  return {
    sports: [{ id: 1, key: 'basketball', name: 'Basketball' }],
    leagues: [
      { id: 10, key: 'nba', name: 'NBA', sport_id: 1 },
      { id: 11, key: 'wnba', name: 'WNBA', sport_id: 1 },
    ],
    teams: [
      { id: 1000, key: 'celtics', name: 'Boston Celtics', league_id: 10 },
      { id: 1001, key: 'knicks', name: 'New York Knicks', league_id: 10 },
      { id: 1100, key: 'liberty', name: 'New York Liberty', league_id: 11 },
      { id: 1101, key: 'sun', name: 'Connecticut Sun', league_id: 11 },
    ],
    operators: [
      { id: 1, key: 'northstar', name: 'Northstar Bet' },
      { id: 2, key: 'kingsbet', name: 'Kingsbet' },
    ],
    betting_markets: [
      { id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team' },
      { id: 2, key: 'total', name: 'Total', category: 'main', entity_type: 'event' },
    ],
    events: [
      { id: 100, league_id: 10, start_time: at(-3), status: 'final', home_team_id: 1000, away_team_id: 1001, home_score: 112, away_score: 104 },
      { id: 200, league_id: 10, start_time: at(24), home_team_id: 1001, away_team_id: 1000 },
      { id: 300, league_id: 11, start_time: at(-2), status: 'live', home_team_id: 1100, away_team_id: 1101, home_score: 40, away_score: 38 },
    ],
    odds: [
      odds(1, 100, 1, 1, 'home', 1.8),
      odds(2, 100, 1, 1, 'away', 2.05),
      { ...odds(3, 100, 2, 2, 'over', 1.91), line: 221.5 },
      { ...odds(4, 100, 2, 2, 'under', 1.91), line: 221.5 },
      odds(5, 200, 1, 1, 'home', 1.5),
      odds(6, 200, 2, 1, 'away', 2.6),
      odds(7, 300, 1, 1, 'home', 1.7),
    ],
  };
}

export function odds(id: number, eventId: number, operatorId: number, marketId: number, position: string, price: number): OddsItem {
  return { id, event_id: eventId, operator_id: operatorId, betting_market_id: marketId, position, price_decimal: price };
}

export interface TierKeys {
  free: string;
  pro: string;
  enterprise: string;
}

/** A client of each tier, by API key. */
export async function clientsOfEachTier(t: TestApp): Promise<TierKeys> {
  const [free, pro, enterprise] = await Promise.all(
    (['free', 'pro', 'enterprise'] as const).map(async (tier) => (await onboardClient(t, { tier, name: `A ${tier} client` })).apiKey),
  );
  return { free: free ?? '', pro: pro ?? '', enterprise: enterprise ?? '' };
}

export interface HistoryApp {
  t: Harness;
  keys: TierKeys;
  /** A client of each tier, calling with its API key. */
  as: Record<keyof TierKeys, Caller>;
  /** The app's clock when the suite started. */
  now: number;
}

/**
 * The history suites' app: built before the suite (with a client of each tier, then `prepare`),
 * closed after it. Read its parts inside the tests.
 */
export function historyApp(dialect: DialectName, prepare: (t: Harness, now: number) => Promise<void> = async () => {}): HistoryApp {
  let state: HistoryApp | undefined;
  beforeAll(async () => {
    const t = await harness({ dialect });
    const keys = await clientsOfEachTier(t);
    const as = { free: t.as({ apiKey: keys.free }), pro: t.as({ apiKey: keys.pro }), enterprise: t.as({ apiKey: keys.enterprise }) };
    state = { t, keys, as, now: t.clock.now() };
    await prepare(t, state.now);
  }, 180_000);
  afterAll(async () => state?.t.close());
  const ready = (): HistoryApp => {
    if (state === undefined) throw new Error('the suite has not started');
    return state;
  };
  return {
    get t() {
      return ready().t;
    },
    get keys() {
      return ready().keys;
    },
    get as() {
      return ready().as;
    },
    get now() {
      return ready().now;
    },
  };
}
