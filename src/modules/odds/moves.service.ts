import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { validationError } from '../../platform/errors.js';
import { type Page, slicePage } from '../../platform/pagination.js';
import { eventKindsOf } from '../../shared/event-kinds.js';
import { idSet } from '../../shared/filters.js';
import { iso } from '../../shared/wire.js';
import { dayRange } from '../events/index.js';
import type { KeyResolver } from '../references/index.js';
import { type MoveThresholds, steamFiguresOf } from './moves.detect.js';
import { movesRepository, type StoredMove } from './moves.repository.js';
import type { MoveItem, MovesBody } from './moves.schemas.js';
import { periodSet } from './odds.service.js';

/** The steam moves and drops stored as the imports landed (POST /v1/odds/moves). */
export interface MovesService {
  /** A page of the moves of a scope and time range, newest first, as the request's thresholds see them. */
  list(body: MovesBody): Promise<Page<MoveItem>>;
}

export function createMovesService(deps: { db: Kysely<Schema>; keys: KeyResolver; thresholds: MoveThresholds }): MovesService {
  const { db, keys, thresholds } = deps;
  return {
    async list(body) {
      const asked = askedThresholds(body, thresholds);
      const from = body.from === undefined ? undefined : Date.parse(body.from);
      const to = body.to === undefined ? undefined : Date.parse(body.to);
      if (from !== undefined && to !== undefined && to < from) throw validationError('to', 'minimum', 'to must not be before from');
      const eventIds = idSet(body.event_ids);
      const stored = await movesRepository.list(db, {
        eventIds,
        // Moves are read by time: a day's events only when `event_date` asks for them.
        day: eventIds || body.event_date === undefined ? undefined : dayRange(body.event_date, body.timezone ?? 'UTC'),
        sportId: body.sport_id === undefined ? undefined : await keys.requireId('sport', body.sport_id, 'sport_id'),
        leagueId: body.league_id === undefined ? undefined : await keys.requireId('league', body.league_id, 'league_id'),
        marketIds: idSet(body.betting_market_ids),
        rows: { playerIds: idSet(body.player_ids), periodIds: periodSet(body.event_period_ids), altLines: body.include_alt_lines ?? false },
        types: body.types ?? ['steam', 'drop'],
        kinds: eventKindsOf(body.event_kinds),
        from,
        to,
      });
      const operatorIds = idSet(body.operator_ids) ?? null;
      const shown = stored.flatMap((move) => {
        const seen = moveAsAsked(move, asked, operatorIds);
        return seen === undefined ? [] : [moveItemOf(seen)];
      });
      return slicePage(shown, { page: body.page ?? 1, page_size: body.page_size ?? 20 });
    },
  };
}

/** The request's thresholds: each may only be tighter than the configured one (422 naming the field otherwise). */
function askedThresholds(body: MovesBody, configured: MoveThresholds): MoveThresholds {
  const atLeast = (field: string, value: number | undefined, floor: number) => {
    if (value !== undefined && value < floor) throw validationError(field, 'minimum', `${field} must be at least ${floor} (the configured threshold: a request may only tighten it)`);
    return value ?? floor;
  };
  if (body.window !== undefined && body.window > configured.windowSeconds) {
    throw validationError('window', 'maximum', `window must be at most ${configured.windowSeconds} seconds (the configured window: a request may only tighten it)`);
  }
  return {
    minBooks: atLeast('min_books', body.min_books, configured.minBooks),
    minMove: atLeast('min_move', body.min_move, configured.minMove),
    minDrop: atLeast('min_drop', body.min_drop, configured.minDrop),
    windowSeconds: body.window ?? configured.windowSeconds,
  };
}

/**
 * A stored move as tighter thresholds (and a list of books) see it, or undefined when they do not:
 * a book counts when it is asked for, moved within the window asked (its first change of the move
 * at most `window` seconds before it) and by the points (steam) or percent (drop) asked; a steam
 * move needs `min_books` such books, and its figures are then of them alone.
 */
export function moveAsAsked(move: StoredMove, t: MoveThresholds, operatorIds: readonly number[] | null): StoredMove | undefined {
  const within = move.books.filter((b) => (operatorIds === null || operatorIds.includes(b.operator_id)) && move.changed_at - b.since <= t.windowSeconds * 1_000);
  if (move.kind === 'drop') {
    const [book] = within;
    return book !== undefined && book.percent >= t.minDrop ? move : undefined;
  }
  const books = within.filter((b) => b.points >= t.minMove);
  if (books.length < t.minBooks) return undefined;
  if (books.length === move.books.length) return move;
  return { ...move, books, ...steamFiguresOf(books) };
}

/** A stored move as the list, the stream and the webhooks write it. */
export function moveItemOf(move: StoredMove): MoveItem {
  return {
    id: move.id,
    type: move.kind,
    history_id: move.history_id,
    event_id: move.event_id,
    betting_market_id: move.betting_market_id,
    event_period_id: move.event_period_id,
    player_id: move.player_id,
    position: move.position,
    is_main: move.is_main,
    line: move.line,
    operator_id: move.operator_id,
    operator_ids: move.operator_ids,
    from_price: move.from_price,
    to_price: move.to_price,
    size: move.size,
    books: move.books.map((b) => ({ ...b, since: iso(b.since) })),
    window_seconds: move.window_seconds,
    started_at: iso(move.started_at),
    changed_at: iso(move.changed_at),
    detected_at: iso(move.detected_at),
  };
}

/** The stored moves as the streams read them (the stream module's MoveEvents). */
export interface MoveEventsSource {
  /** The newest move's id, 0 when there is none. */
  lastId(): Promise<number>;
  /** Up to `limit` moves after an id, each as POST /v1/odds/moves shows it, with its type and its event's league. */
  after(afterId: number, limit: number): Promise<Array<{ id: number; type: 'steam' | 'drop'; change: MoveItem; leagueId: number | null }>>;
}

export function createMoveEvents(db: Kysely<Schema>): MoveEventsSource {
  return {
    lastId: () => movesRepository.newest(db),
    after: async (afterId: number, limit: number) =>
      (await movesRepository.after(db, afterId, limit)).map((move) => ({ id: move.id, type: move.kind, change: moveItemOf(move), leagueId: move.league_id })),
  };
}
