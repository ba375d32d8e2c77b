import type { Insertable, Kysely, Selectable } from 'kysely';
import { chunksOf, paddedList } from '../../platform/chunks.js';
import { numberOrNull } from '../../platform/db/column-values.js';
import { whereEventKinds } from '../../platform/db/event-kinds.js';
import type { OddsMovesTable, Schema } from '../../platform/db/schema.js';
import type { BoardScope } from './board.repository.js';
import type { MoveBook, MoveChange } from './moves.detect.js';

/** A move as stored (odds_moves), its JSON columns read. */
export interface StoredMove {
  id: number;
  kind: 'steam' | 'drop';
  history_id: number;
  event_id: number;
  league_id: number | null;
  betting_market_id: number;
  event_period_id: number | null;
  player_id: number | null;
  position: string;
  is_main: boolean;
  line: number | null;
  selection_key: string;
  operator_id: number | null;
  operator_ids: number[];
  odds_id: number;
  from_price: number;
  to_price: number;
  size: number;
  books: MoveBook[];
  window_seconds: number;
  started_at: number;
  changed_at: number;
  detected_at: number;
}

export type NewMove = Omit<StoredMove, 'id'>;

/** Which stored moves a list reads: the board's scope (its books aside: they are the service's; every event unless a day is given), the types, a time range. */
export interface MovesQuery extends Omit<BoardScope, 'operatorIds' | 'day' | 'kinds'> {
  /** [start, end) of the events' start times, epoch ms: only with `event_date`; ignored with eventIds. */
  day: { start: number; end: number } | undefined;
  types: ReadonlyArray<'steam' | 'drop'>;
  /** The kinds of events asked for (`event_kinds`). */
  kinds: readonly string[];
  /** [from, to) of changed_at, epoch ms. */
  from: number | undefined;
  to: number | undefined;
}

/** Ids per `in` list: well under either database's limit on bound values. */
const IN_CHUNK = 1_000;
/** Instants per boundary query: each is two index steps per row, as two columns. */
const INSTANTS_PER_QUERY = 4;

/** What a batch's detection reads of the history before and after it (boundaryChanges). */
export interface BoundaryQuery {
  /** Epoch ms: the earliest window start of the batch's changes; nothing recorded before it is read. */
  since: number;
  /** Epoch ms: the instants the detection takes states at (each change's window start and its own instant). */
  instants: readonly number[];
  /** The batch's first change id: it and the changes after it are known, those before it are read. */
  firstId: number;
}

/** Changes in the order the detection reads them: by changed_at, then id. */
export const byInstant = (a: MoveChange, b: MoveChange): number => a.changed_at - b.changed_at || a.id - b.id;

export const movesRepository = {
  /**
   * The changes of some odds rows that the detection of a batch of changes can choose from, by row,
   * each list by (changed_at, id): of the changes recorded before the batch (ids below
   * `bounds.firstId`) and at or after `since`, for each instant of `bounds.instants` the last at or
   * before it and the first after it, and the first of all. With the batch's own changes, these are
   * every change the detection takes a state or a start from (moves.detect.ts picks the last, first
   * or earliest of a row's known changes about each instant), so the answer is the same as from
   * every change of the window, which a busy row would have by the thousand. Each is one step of
   * the rows' index (odds_id, changed_at, id).
   *
   * Nothing recorded after the batch is read: it could only give a state to a row that has no
   * known change in the window, and such a row's state is the same at the window's start and at
   * the change, a move of 0 points, which no threshold (each above 0) counts. Looking for it was a
   * scan of the row's whole window, the cost of a busy feed.
   */
  async boundaryChanges(db: Kysely<Schema>, oddsIds: readonly number[], bounds: BoundaryQuery): Promise<Map<number, MoveChange[]>> {
    const { since, firstId } = bounds;
    const instants = [...new Set(bounds.instants)].filter((instant) => instant >= since);
    const wanted = new Set<number>();
    for (const ids of chunksOf(oddsIds, IN_CHUNK)) {
      for (const group of chunksOf(instants.length === 0 ? [since] : instants, INSTANTS_PER_QUERY)) {
        const found = await db
          .selectFrom('odds as o')
          .where('o.id', 'in', paddedList(ids))
          .select((eb) => {
            const before = () => eb.selectFrom('odds_history as x').select('x.id').whereRef('x.odds_id', '=', 'o.id').where('x.id', '<', firstId).where('x.changed_at', '>=', since);
            return [
              before().orderBy('x.changed_at').orderBy('x.id').limit(1).as('earliest'),
              // Padded to 1, 2 or 4 instants: a few statement texts, and no instant looked up twice when there are 2.
              ...paddedList(group, 1).flatMap((instant, i) => [
                before().where('x.changed_at', '<=', instant).orderBy('x.changed_at', 'desc').orderBy('x.id', 'desc').limit(1).as(`last_${i}`),
                before().where('x.changed_at', '>', instant).orderBy('x.changed_at').orderBy('x.id').limit(1).as(`next_${i}`),
              ]),
            ];
          })
          .execute();
        for (const row of found) for (const id of Object.values(row)) if (id !== null) wanted.add(Number(id));
      }
    }
    const out = new Map<number, MoveChange[]>();
    for (const ids of chunksOf([...wanted], IN_CHUNK)) {
      const rows = await db.selectFrom('odds_history').select(['id', 'odds_id', 'changed_at', 'price_from', 'price_to', 'line_from', 'line_to', 'status_from', 'status_to']).where('id', 'in', paddedList(ids)).execute();
      for (const r of rows) {
        const change: MoveChange = {
          id: Number(r.id),
          odds_id: Number(r.odds_id),
          changed_at: Number(r.changed_at),
          from: r.price_from === null || r.status_from === null ? null : { price: Number(r.price_from), line: numberOrNull(r.line_from), open: r.status_from === 'open' },
          to: { price: Number(r.price_to), line: numberOrNull(r.line_to), open: r.status_to === 'open' },
        };
        const list = out.get(change.odds_id);
        if (list === undefined) out.set(change.odds_id, [change]);
        else list.push(change);
      }
    }
    for (const list of out.values()) list.sort(byInstant);
    return out;
  },

  async insert(trx: Kysely<Schema>, moves: readonly NewMove[]): Promise<void> {
    for (const chunk of chunksOf(moves, 200)) await trx.insertInto('odds_moves').values(chunk.map(rowOf)).execute();
  },

  /** Up to `limit` moves after an id, in id order (the order they were found in). */
  async after(db: Kysely<Schema>, afterId: number, limit: number): Promise<StoredMove[]> {
    const rows = await db.selectFrom('odds_moves').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
    return rows.map(moveOf);
  },

  /** The newest move's id, 0 when there is none. */
  async newest(db: Kysely<Schema>): Promise<number> {
    const row = await db.selectFrom('odds_moves').select((eb) => eb.fn.max<number | null>('id').as('last')).executeTakeFirst();
    return Number(row?.last ?? 0);
  },

  /** The moves of a scope and a time range, newest first (changed_at, then id). */
  async list(db: Kysely<Schema>, q: MovesQuery): Promise<StoredMove[]> {
    let select = db.selectFrom('odds_moves as mv').innerJoin('events as e', 'e.id', 'mv.event_id').selectAll('mv').where('mv.kind', 'in', [...q.types]);
    select = whereEventKinds(select, 'e.kind', q.kinds);
    if (q.eventIds) select = select.where('mv.event_id', 'in', q.eventIds);
    else if (q.day) select = select.where('e.start_time', '>=', q.day.start).where('e.start_time', '<', q.day.end);
    if (q.sportId !== undefined) select = select.where('e.sport_id', '=', q.sportId);
    if (q.leagueId !== undefined) select = select.where('e.league_id', '=', q.leagueId);
    if (q.marketIds) select = select.where('mv.betting_market_id', 'in', q.marketIds);
    const { playerIds, periodIds, altLines } = q.rows;
    if (playerIds) select = select.where('mv.player_id', 'in', playerIds);
    if (periodIds) {
      const ids = periodIds.filter((id) => id !== null);
      const full = periodIds.includes(null);
      select = select.where((eb) => eb.or([...(ids.length > 0 ? [eb('mv.event_period_id', 'in', ids)] : []), ...(full ? [eb('mv.event_period_id', 'is', null)] : [])]));
    }
    if (!altLines) select = select.where('mv.is_main', '=', 1);
    if (q.from !== undefined) select = select.where('mv.changed_at', '>=', q.from);
    if (q.to !== undefined) select = select.where('mv.changed_at', '<', q.to);
    const rows = await select.orderBy('mv.changed_at', 'desc').orderBy('mv.id', 'desc').execute();
    return rows.map(moveOf);
  },
};

function rowOf(move: NewMove): Insertable<OddsMovesTable> {
  const { books, operator_ids, is_main, ...rest } = move;
  return { ...rest, is_main: is_main ? 1 : 0, operator_ids: JSON.stringify(operator_ids), books: JSON.stringify(books), book_count: books.length };
}

function moveOf(r: Selectable<OddsMovesTable>): StoredMove {
  return {
    id: Number(r.id),
    kind: r.kind === 'steam' ? 'steam' : 'drop',
    history_id: Number(r.history_id),
    event_id: Number(r.event_id),
    league_id: numberOrNull(r.league_id),
    betting_market_id: Number(r.betting_market_id),
    event_period_id: numberOrNull(r.event_period_id),
    player_id: numberOrNull(r.player_id),
    position: r.position,
    is_main: Number(r.is_main) === 1,
    line: numberOrNull(r.line),
    selection_key: r.selection_key,
    operator_id: numberOrNull(r.operator_id),
    operator_ids: JSON.parse(r.operator_ids) as number[],
    odds_id: Number(r.odds_id),
    from_price: Number(r.from_price),
    to_price: Number(r.to_price),
    size: Number(r.size),
    books: JSON.parse(r.books) as MoveBook[],
    window_seconds: Number(r.window_seconds),
    started_at: Number(r.started_at),
    changed_at: Number(r.changed_at),
    detected_at: Number(r.detected_at),
  };
}
