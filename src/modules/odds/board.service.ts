import type { Kysely } from 'kysely';
import { eventKindsOf } from '../../shared/event-kinds.js';
import type { EventKind } from '../../platform/db/schema.js';
import type { Clock } from '../../platform/clock.js';
import { MINUTE_MS } from '../../platform/time.js';
import type { Schema } from '../../platform/db/schema.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import { idSet } from '../../shared/filters.js';
import type { OddsFormat } from '../../shared/odds-format.js';
import { DEFAULT_DEVIG_METHOD, type DevigMethod } from '../../shared/pricing/devig.js';
import { dayRange, todayIn } from '../events/index.js';
import type { KeyResolver } from '../references/index.js';
import { type AsOfCheck, instantOf, itemsKeyAt, keyRowsAt } from './as-of.js';
import { createBoardRepository } from './board.repository.js';
import type { BoardBody, BoardItem } from './board.schemas.js';
import { selectionIdsOf } from './board.keys.js';
import { type BoardSelection, boardItemOf, selectionsOf, shownBoardItem } from './board.selections.js';
import { periodSet } from './odds.service.js';

/** The odds board: one line per selection, with every book's price and the market's consensus. */
export interface BoardService {
  /** The selections of a day's or some events' markets, in the board's order, as a paged list (POST /v1/odds/board). */
  board: ListSource<BoardFilters, BoardEntry> & { filters(body: Omit<BoardBody, 'page' | 'page_size'>): BoardFilters };
}

/** A board request's filters, normalised (sorted ids, the day as a UTC range): equal requests share a cache entry. */
export interface BoardFilters {
  e: number[] | null;
  start: number;
  end: number;
  /** The instant a day's events are read at: those that can still be bet then (0 with a list of events). */
  at: number;
  s: number | null;
  l: number | null;
  m: number[] | null;
  o: number[] | null;
  p: number[] | null;
  pe: Array<number | null> | null;
  a: boolean;
  f: OddsFormat;
  d: DevigMethod;
  dl: boolean;
  /** as_of, epoch ms; null: now. */
  t: number | null;
  /** `event_kinds` (default matchups only). */
  k: EventKind[];
}

/**
 * A cached selection is turned into the item a request sees by the page's view (its books, format
 * and de-vig method); the list's items are therefore of either form.
 */
export type BoardEntry = BoardSelection | BoardItem;

export function createBoardService(deps: { db: Kysely<Schema>; clock: Clock; keys: KeyResolver; checkAsOf: AsOfCheck }): BoardService {
  const { clock, keys, checkAsOf } = deps;
  const repository = createBoardRepository(deps.db);

  const board: BoardService['board'] = {
    name: 'odds-board',

    filters(body) {
      const timeZone = body.timezone ?? 'UTC';
      const eventIds = idSet(body.event_ids) ?? null;
      // With a list of events the day plays no part: left out of the key, so that it shares no entry by accident.
      const now = clock.now();
      const asOf = instantOf(body.as_of);
      const { start, end } = eventIds ? { start: 0, end: 0 } : dayRange(body.event_date ?? todayIn(timeZone, asOf ?? now), timeZone);
      return {
        e: eventIds,
        start,
        end,
        // Whole minutes, as historical events are cut: one filter keeps one cache entry for a minute, not a request.
        // As of an instant, what could still be bet then.
        at: eventIds ? 0 : (asOf ?? Math.floor(now / MINUTE_MS) * MINUTE_MS),
        s: body.sport_id ?? null,
        l: body.league_id ?? null,
        m: idSet(body.betting_market_ids) ?? null,
        o: idSet(body.operator_ids) ?? null,
        p: idSet(body.player_ids) ?? null,
        pe: periodSet(body.event_period_ids) ?? null,
        a: body.include_alt_lines ?? false,
        f: body.odds_format ?? 'decimal',
        d: body.devig ?? DEFAULT_DEVIG_METHOD,
        dl: body.include_deeplinks ?? false,
        t: asOf,
        k: eventKindsOf(body.event_kinds),
      };
    },

    /** One id per selection, in the board's order (board.selections.ts); as of an instant, of the rows open then. */
    async ids(f) {
      if (f.t !== null) await checkAsOf(f.t);
      // Scope ids name a record, as on every list (docs/api.md): an unknown one is 404, not an empty board.
      const sportId = f.s === null ? undefined : await keys.requireId('sport', f.s, 'sport_id');
      const leagueId = f.l === null ? undefined : await keys.requireId('league', f.l, 'league_id');
      const rows = await repository.keyRows({
        eventIds: f.e ?? undefined,
        day: { start: f.start, end: f.end, at: f.at, past: f.t !== null },
        sportId,
        leagueId,
        marketIds: f.m ?? undefined,
        operatorIds: f.o ?? undefined,
        rows: { playerIds: f.p ?? undefined, periodIds: f.pe ?? undefined, altLines: f.a },
        kinds: f.k,
      }, f.t);
      return selectionIdsOf(rows);
    },

    /**
     * The selections of a page with every row of their markets: two queries, whatever the page size.
     * As of an instant, the page's own rows are taken from their markets' rows as they stood then.
     */
    async items(ids, { t }) {
      const keyRows = await repository.keyRowsById(ids);
      const eventIds = [...new Set(keyRows.map((k) => k.event_id))];
      const marketIds = [...new Set(keyRows.map((k) => k.betting_market_id))];
      const rows = await repository.rowsOf(eventIds, marketIds, t);
      return selectionsOf(t === null ? keyRows : keyRowsAt(keyRows, rows), rows);
    },

    itemsKey: ({ t }) => itemsKeyAt(t),

    view: (entry, f) => ('rows' in entry ? shownBoardItem(boardItemOf(entry, { operatorIds: f.o, format: f.f, method: f.d, deeplinks: f.dl }), f.f) : entry),
  };

  return { board };
}
