import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import type { HistoryWork, StreamRow } from '../history/index.js';
import { edgesOfTouched, type MarketPair, touchedMarkets } from '../odds/index.js';
import { type Candidate, candidatesOf, type MiddlesOf, NO_MIDDLES } from './signals.candidates.js';
import { gradesOf } from './signals.grading.js';
import { type NewSignal, signalsRepository } from './signals.repository.js';

/** The detector's cursor over the price history (feed_cursors.name), made by its migration. */
export const SIGNALS_DETECTOR_CURSOR = 'signals: detector';

export interface DetectorDeps {
  clock: Clock;
  /** A value bet is a signal from this EV, as a fraction (SIGNALS_MIN_EV_PCT ÷ 100). */
  minEdge: number;
  /** The middles of some markets; none by default. */
  middles?: MiddlesOf;
}

/** What a batch of changes made: the appearances that started (graded at once when their selections already are), and those that ended. */
export interface Detected {
  opened: NewSignal[];
  ended: Array<{ id: number; at: number }>;
}

/**
 * The signals' detector (decision 0321), a history processor's work: after the imports, the edges
 * now of the markets their changes touched (the edges endpoint's own functions, with every book
 * and the default multiplicative de-vig), each compared with the appearances still open of those
 * markets. A signal that holds and was not open starts an appearance at its market's newest
 * change; an open one that no longer holds ends there. Only what could still be bet then counts:
 * an event not yet started at that instant, or live.
 */
export function signalsDetectorWork(deps: DetectorDeps): HistoryWork<Detected> {
  const middles = deps.middles ?? NO_MIDDLES;
  return {
    name: SIGNALS_DETECTOR_CURSOR,
    async compute(db, rows) {
      const markets = touchedMarkets(rows, ({ item }) => [item.event_id, item.betting_market_id], changedAt);
      if (markets.size === 0) return { opened: [], ended: [] };
      const pairs = [...markets.values()].map((market) => market.pair);
      const instant = (pair: MarketPair) => {
        const market = markets.get(`${pair[0]}|${pair[1]}`);
        return market === undefined ? deps.clock.now() : changedAt(market.newest);
      };
      const events = await signalsRepository.events(db, [...new Set(pairs.map(([eventId]) => eventId))]);
      const bettable = (eventId: number, at: number) => {
        const event = events.get(eventId);
        // Before its start whatever became of it since (a late import of an earlier change is read as of its instant), or live.
        return event !== undefined && (at < event.start || event.status === 'live');
      };
      const edges = (await edgesOfTouched(db, markets)).map(({ edge, market }) => ({ edge, at: changedAt(market.newest) }));
      // The rows of the markets with an arbitrage: its legs' selections are found among them.
      const arbitraged = new Map(edges.filter(({ edge }) => edge.kind === 'arbitrage').map(({ edge }): [string, MarketPair] => [`${edge.event_id}|${edge.betting_market_id}`, [edge.event_id, edge.betting_market_id]]));
      const found = [...candidatesOf(edges, deps.minEdge, await signalsRepository.marketRows(db, [...arbitraged.values()])), ...(await middles(pairs, instant))].filter((c) =>
        bettable(Number(c.event_id), Number(c.detected_at)),
      );
      return appearances(db, deps.clock.now(), found, await signalsRepository.openOf(db, pairs), instant);
    },
    store: (trx, made) => signalsRepository.record(trx, made.opened, made.ended),
    committed: async () => {},
  };
}

const changedAt = (row: StreamRow) => Date.parse(row.item.changed_at);

/** The appearances that start (candidates with no open one of their key) and end (open ones with no candidate). */
async function appearances(db: Kysely<Schema>, now: number, found: readonly Candidate[], open: ReadonlyArray<{ id: number; key: string; event_id: number; betting_market_id: number }>, instant: (pair: MarketPair) => number): Promise<Detected> {
  const openKeys = new Set(open.map((signal) => signal.key));
  const foundKeys = new Set(found.map((candidate) => candidate.key));
  const seen = new Set<string>();
  const started = found.filter((candidate) => {
    if (openKeys.has(candidate.key) || seen.has(candidate.key)) return false;
    seen.add(candidate.key);
    return true;
  });
  const grades = await gradesOf(db, now, started);
  const opened = started.map((candidate, i): NewSignal => ({ ...candidate, ended_at: null, ...(grades[i] ?? {}) }));
  const ended = open.filter((signal) => !foundKeys.has(signal.key)).map((signal) => ({ id: Number(signal.id), at: instant([Number(signal.event_id), Number(signal.betting_market_id)]) }));
  return { opened, ended };
}
