import type { ExpressionBuilder, Kysely } from 'kysely';
import { whereEventKinds } from '../../platform/db/event-kinds.js';
import type { EventsTable, Schema } from '../../platform/db/schema.js';
import { type DeepLinks, deepLinksOf, type DeepLinkTemplates, type DeepLinkValues } from '../../shared/deep-links.js';
import { iso } from '../../shared/wire.js';
import { type OddsRowFilter, templatesOf, whereOddsRows } from './odds.repository.js';
import { chunksOf, paddedList } from '../../platform/chunks.js';
import { numberOrNull } from '../../platform/db/column-values.js';
import { joinStateAt } from './as-of.repository.js';

/** The board's queries: the keys of the selections in a scope or on a page, and the rows of their markets. */
export interface BoardRepository {
  /**
   * The open odds rows of a board's scope: only their keys. A suspended price cannot be bet, so it
   * is on no board. `at` (epoch ms): the rows open at that instant, each with its line then, as the
   * price history knows them (as-of.repository.ts), read with their keys in one statement.
   */
  keyRows(scope: BoardScope, at?: number | null): Promise<SelectionKeyRow[]>;
  /** Rows by id: the key of each selection a page shows. */
  keyRowsById(ids: readonly number[]): Promise<SelectionKeyRow[]>;
  /**
   * Every open row of some events' markets, with its operator and market: the selections and their
   * markets. `at`: the rows open then, with their price, line and status then, and `updated_at` the
   * instant of that change.
   */
  rowsOf(eventIds: readonly number[], marketIds: readonly number[], at?: number | null): Promise<BoardRow[]>;
  /**
   * Every row, open or suspended, of some (event, market) pairs, with what the board's figures are
   * computed from and nothing more: the board's changes compare the figures before and after.
   */
  priceRowsOf(pairs: ReadonlyArray<readonly [eventId: number, marketId: number]>): Promise<PriceRow[]>;
}

/** The events a board covers: a list of events, or a day's; narrowed to a sport or a league. */
export interface BoardScope {
  eventIds: readonly number[] | undefined;
  /** [start, end) in epoch ms, and the instant the day is read at (its events that can still be bet then); ignored with eventIds. */
  /** `at`: the instant the rule of what can still be bet is applied at; `past`: it is an as_of instant (canStillBeBet). */
  day: { start: number; end: number; at: number; past?: boolean };
  sportId: number | undefined;
  leagueId: number | undefined;
  marketIds: readonly number[] | undefined;
  operatorIds: readonly number[] | undefined;
  rows: OddsRowFilter;
  /** The kinds of events asked for (`event_kinds`); absent: every kind (the board's own processors). */
  kinds?: readonly string[];
}

/** What makes an odds row one selection's: the key the board groups rows by, and the order it lists them in. */
export interface SelectionKeyRow {
  id: number;
  start_time: number;
  event_id: number;
  betting_market_id: number;
  event_period_id: number | null;
  player_id: number | null;
  position: string;
  line: number | null;
  is_main: boolean;
}

/** A row's selection without its event's start time: what the board groups by. */
export type SelectionKey = Omit<SelectionKeyRow, 'start_time'>;

/** An odds row as the board's figures (best, consensus, fair) are computed from it. */
export interface PriceRow extends SelectionKey {
  operator: { id: number };
  price: number;
  /** False for a suspended row: it cannot be bet, so it is on no board. */
  open: boolean;
  /** The stored selection (event, market, position, line) the row prices; null before its next import. */
  selection_id: number | null;
}

export interface BoardRow extends SelectionKeyRow, PriceRow {
  operator: { id: number; key: string; name: string };
  market: { id: number; key: string; name: string };
  is_live: boolean;
  updated_at: string;
  /** What the operator's links to the bet are made from: made only for the answers that ask for them (`linksOf`). */
  link: { templates: DeepLinkTemplates; values: DeepLinkValues };
}

/**
 * The operator's links to a row's bet, from its templates. Made when an answer shows them, not
 * when the row is read: most reads (the edges the processors look for, a board without
 * `include_deeplinks`) never show them, and a template's replacements are most of a row's cost.
 */
export function linksOf(row: BoardRow): DeepLinks {
  return deepLinksOf(row.link.templates, row.link.values);
}

/**
 * The rule of a day's board and edges (docs/data.md#the-odds-board): the events that can still be
 * bet at `now`, those `live`, and those `scheduled` to start after `now`. A finished, cancelled or
 * postponed event, or one past its start that the feed has not yet called live, is no longer on
 * offer; its prices stay in the odds and the history. Events named by id are answered whatever
 * their state: the caller asked for them. `now` is the request's clock, or, with `past`, the
 * instant a board is read as of: then an event could be bet if it started after it, or had
 * started and not yet ended (its `ended_at` later, or none yet and live now), unless it is now
 * cancelled or postponed.
 */
export function canStillBeBet(now: number, past = false) {
  return (eb: ExpressionBuilder<{ e: EventsTable }, 'e'>) =>
    past
      ? eb.and([
          eb('e.status', 'not in', ['cancelled', 'postponed']),
          eb.or([eb('e.start_time', '>', now), eb('e.ended_at', '>', now), eb.and([eb('e.ended_at', 'is', null), eb('e.status', '=', 'live')])]),
        ])
      : eb.or([eb('e.status', '=', 'live'), eb.and([eb('e.status', '=', 'scheduled'), eb('e.start_time', '>', now)])]);
}

/** (event, market) pairs per statement: two bound values each, well under either database's ceiling. */
const PAIRS_PER_QUERY = 1_000;

/** The columns of a row's selection key, and their reading. */
export const keyFields = ['odds.id', 'odds.event_id', 'odds.betting_market_id', 'odds.event_period_id', 'odds.player_id', 'odds.position', 'odds.line', 'odds.is_main'] as const;

export function createBoardRepository(db: Kysely<Schema>): BoardRepository {
  const keyColumns = [...keyFields, 'e.start_time'] as const;
  const keyOf = (r: KeyColumns & { start_time: number }): SelectionKeyRow => ({ ...keyFieldsOf(r), start_time: Number(r.start_time) });

  return {
    /** The open odds rows of a board's scope: only their keys. A suspended price cannot be bet, so it is on no board. */
    async keyRows(scope: BoardScope, at: number | null = null): Promise<SelectionKeyRow[]> {
      let select = db
        .selectFrom('odds')
        .$if(at !== null, (q) => joinStateAt(db, q, at ?? 0, 'open'))
        .innerJoin('events as e', 'e.id', 'odds.event_id')
        .select(keyColumns)
        .$if(at === null, (q) => q.where('odds.status', '=', 'open'));
      select = scope.eventIds
        ? select.where('odds.event_id', 'in', scope.eventIds)
        : select.where('e.start_time', '>=', scope.day.start).where('e.start_time', '<', scope.day.end).where(canStillBeBet(scope.day.at, scope.day.past ?? false));
      if (scope.sportId !== undefined) select = select.where('e.sport_id', '=', scope.sportId);
      if (scope.leagueId !== undefined) select = select.where('e.league_id', '=', scope.leagueId);
      if (scope.marketIds) select = select.where('odds.betting_market_id', 'in', scope.marketIds);
      if (scope.operatorIds) select = select.where('odds.operator_id', 'in', scope.operatorIds);
      if (scope.kinds) select = whereEventKinds(select, 'e.kind', scope.kinds);
      // As of an instant, the line then: set on the key made, not spread into a copy (a day has thousands of rows).
      return (await whereOddsRows(select, scope.rows).execute()).map((r) => {
        const key = keyOf(r);
        if (r.line_to !== undefined) key.line = numberOrNull(r.line_to);
        return key;
      });
    },

    /** Rows by id: the key of each selection a page shows. */
    async keyRowsById(ids: readonly number[]): Promise<SelectionKeyRow[]> {
      const rows = await db.selectFrom('odds').innerJoin('events as e', 'e.id', 'odds.event_id').select(keyColumns).where('odds.id', 'in', ids).execute();
      return rows.map(keyOf);
    },

    /** Every open row of some events' markets, with its operator and market: the selections and their markets. */
    async rowsOf(eventIds: readonly number[], marketIds: readonly number[], at: number | null = null): Promise<BoardRow[]> {
      if (eventIds.length === 0) return [];
      const rows = await db
        .selectFrom('odds')
        .$if(at !== null, (q) => joinStateAt(db, q, at ?? 0, 'open'))
        .innerJoin('events as e', 'e.id', 'odds.event_id')
        .leftJoin('operators as op', 'op.id', 'odds.operator_id')
        .leftJoin('betting_markets as m', 'm.id', 'odds.betting_market_id')
        .select([
          ...keyColumns, 'odds.operator_id', 'odds.price_decimal', 'odds.status', 'odds.is_live', 'odds.updated_at', 'odds.selection_id', 'op.key as operator_key',
          'op.name as operator_name', 'm.key as market_key', 'm.name as market_name', 'odds.operator_selection_id', 'op.bet_web_deep_link_template',
          'op.bet_ios_deep_link_template', 'op.bet_android_deep_link_template',
        ])
        .where('odds.event_id', 'in', eventIds)
        .where('odds.betting_market_id', 'in', marketIds)
        .$if(at === null, (q) => q.where('odds.status', '=', 'open'))
        .execute();
      return rows.map((r) => ({
        ...keyOf(r),
        ...(r.line_to === undefined ? {} : { line: numberOrNull(r.line_to) }),
        operator: { id: Number(r.operator_id), key: r.operator_key ?? '', name: r.operator_name ?? '' },
        market: { id: Number(r.betting_market_id), key: r.market_key ?? '', name: r.market_name ?? '' },
        price: Number(r.price_to ?? r.price_decimal),
        open: r.changed_at !== undefined || r.status === 'open',
        is_live: Number(r.is_live) === 1,
        updated_at: iso(Number(r.changed_at ?? r.updated_at)),
        selection_id: numberOrNull(r.selection_id),
        link: {
          templates: templatesOf(r),
          values: {
            operator_selection_id: r.operator_selection_id,
            event_id: Number(r.event_id),
            betting_market_id: Number(r.betting_market_id),
            event_betting_market_position_id: numberOrNull(r.selection_id),
            position: r.position,
            line: numberOrNull(r.line),
          },
        },
      }));
    },

    priceRowsOf: (pairs) => priceRowsOf(db, pairs),
  };
}

/**
 * Every row, open or suspended, of some (event, market) pairs, in id order: only the pairs, not
 * every market of every event named, and without the operator's templates and links, which no
 * board change carries. The events' index finds the rows; the pairs filter them, a bounded number
 * per statement (a window's batch of changes may touch thousands).
 */
async function priceRowsOf(db: Kysely<Schema>, pairs: ReadonlyArray<readonly [eventId: number, marketId: number]>): Promise<PriceRow[]> {
  const out: PriceRow[] = [];
  for (const chunk of chunksOf(pairs, PAIRS_PER_QUERY)) {
    const rows = await db
      .selectFrom('odds')
      .select([...keyFields, 'odds.operator_id', 'odds.price_decimal', 'odds.status', 'odds.selection_id'])
      .where('odds.event_id', 'in', paddedList([...new Set(chunk.map(([eventId]) => eventId))]))
      .where((eb) => eb(eb.refTuple('odds.event_id', 'odds.betting_market_id'), 'in', paddedList(chunk).map(([eventId, marketId]) => eb.tuple(eventId, marketId))))
      .execute();
    for (const r of rows) {
      out.push({
        ...keyFieldsOf(r),
        operator: { id: Number(r.operator_id) },
        price: Number(r.price_decimal),
        open: r.status === 'open',
        selection_id: numberOrNull(r.selection_id),
      });
    }
  }
  return out.sort((a, b) => a.id - b.id);
}

type KeyColumns = { id: number; event_id: number; betting_market_id: number; event_period_id: number | null; player_id: number | null; position: string; line: number | null; is_main: number };

export function keyFieldsOf(r: KeyColumns): SelectionKey {
  return {
    id: Number(r.id),
    event_id: Number(r.event_id),
    betting_market_id: Number(r.betting_market_id),
    event_period_id: numberOrNull(r.event_period_id),
    player_id: numberOrNull(r.player_id),
    position: r.position,
    line: numberOrNull(r.line),
    is_main: Number(r.is_main) === 1,
  };
}
