import { SportsDataError } from './errors.js';
import { answerOf } from './http.js';
import type { GradedOdds, OddsMove, PriceChange } from './generated/types.js';

/** What the odds stream carries, besides price changes (see "Live odds stream" in the API documentation). */
export type OddsStreamType = 'odds' | 'board' | 'settled' | 'steam' | 'drop';

/** Parameters of {@link SportsDataClient.oddsStream}. */
export interface OddsStreamParams {
  /** Changes of these events' odds. */
  event_ids?: readonly number[];
  /** Changes of the odds of these leagues' events. */
  league_ids?: readonly number[];
  /** What the stream carries; default `['odds']`. */
  types?: readonly OddsStreamType[];
  /** The kinds of events whose changes it carries: `matchup` (the default alone) and `competition`. */
  event_kinds?: ReadonlyArray<'matchup' | 'competition'>;
  /** Start after this change (its `id`, or a `next_after` of `api.odds.changes`); default: the changes from now on. */
  lastEventId?: number;
}

/** Options of {@link SportsDataClient.oddsStream}. */
export interface OddsStreamOptions {
  /** Ends the stream: the iteration then finishes. */
  signal?: AbortSignal;
  /** Milliseconds to wait before reconnecting; default what the server's `retry:` says (2 s). */
  reconnectDelayMs?: number;
}

/** A price change: `event: odds`. Its `id` is the position to resume from. */
export interface OddsChangeEvent {
  /** The event's kind. */
  type: 'odds';
  /** The history id: the `Last-Event-ID` to resume from, and the `after` of `api.odds.changes`. */
  id: number;
  /** The change, as `api.odds.changes` and the price history give it. */
  change: PriceChange;
}

/** A selection whose best price, consensus or fair price changed: `event: board` (not replayed after a reconnection). */
export interface BoardChangeEvent {
  /** The event's kind. */
  type: 'board';
  /** The selection's new best, consensus and fair prices. */
  change: BoardChange;
}

/** An odds row graded: `event: settled` (not replayed after a reconnection). */
export interface SettledEvent {
  /** The event's kind. */
  type: 'settled';
  /** The grade, as `api.results.graded` lists it. */
  grade: GradedOdds;
}

/** A steam move or a drop found: `event: steam` or `event: drop` (not replayed after a reconnection). */
export interface MoveEvent {
  /** The event's kind. */
  type: 'steam' | 'drop';
  /** The move, as `api.odds.moves` lists it. */
  move: OddsMove;
}

/** The server's heartbeat comment, every 15 s of an open stream. */
export interface HeartbeatEvent {
  /** The event's kind. */
  type: 'heartbeat';
}

/** The server ended the stream (`event: end`); the stream reconnects after it, and a refusal then ends the iteration with its error. */
export interface StreamEndEvent {
  /** The event's kind. */
  type: 'end';
  /** Why: `token_expired`, `server_shutdown`, `credentials_revoked`, … (more may be added). */
  reason: string;
  /** What it means, for people. */
  message: string;
}

/** The stream connected again after a lost connection or an end, from the last change received. */
export interface ReconnectedEvent {
  /** The event's kind. */
  type: 'reconnected';
  /** The `Last-Event-ID` it reconnected with: the stream goes on after that change. */
  lastEventId: number | undefined;
}

/** What the odds stream yields, told apart by `type`. */
export type OddsStreamEvent = OddsChangeEvent | BoardChangeEvent | SettledEvent | MoveEvent | HeartbeatEvent | StreamEndEvent | ReconnectedEvent;

/** A board event's data (see "Board events" in the API documentation). */
export interface BoardChange {
  /** The event. */
  event_id: number;
  /** The betting market. */
  betting_market_id: number;
  /** The period priced; null: the full game. */
  event_period_id: number | null;
  /** The player of a player prop, else null. */
  player_id: number | null;
  /** The selection: `home`, `over`, a player's name, … */
  position: string;
  /** Whether it is the main line. */
  is_main: boolean;
  /** The line, for markets with one. */
  line: number | null;
  /** The selection's id. */
  event_betting_market_position_id: number;
  /** The best decimal price and the operators offering it; null when no book prices it any more. */
  best: {
    /** The best decimal price. */
    price_decimal: number;
    /** The operators offering it. */
    operator_ids: number[];
  } | null;
  /** The consensus price; null when no book prices it any more. */
  consensus: {
    /** The consensus decimal price. */
    price_decimal: number;
    /** Its line, for markets with one. */
    line: number | null;
  } | null;
  /** The consensus fair probability and price (multiplicative de-vig); null when there is none. */
  fair: {
    /** The fair probability. */
    probability: number;
    /** The fair decimal price. */
    price: number;
  } | null;
  /** Which of `best`, `consensus` and `fair` changed. */
  changed: Array<'best' | 'consensus' | 'fair'>;
}

/** What the stream needs of the client: where, how to fetch, and the headers that authenticate (renewed after a 401). */
export interface StreamDeps {
  /** The API's base URL, without a trailing slash. */
  baseUrl: string;
  /** The client's fetch. */
  fetch: typeof fetch;
  /** The client's clock (for `Retry-After` in a refusal). */
  now: () => number;
  /** The headers that authenticate; given the refused ones after a 401, renewed ones. */
  authHeaders(refused?: Record<string, string>): Promise<Record<string, string>>;
}

const DEFAULT_RETRY_MS = 2000;

/**
 * The odds stream as an async iterable of typed events. A lost connection or an `end` is followed
 * by a reconnection with `Last-Event-ID` (the last price change received), so no price change is
 * missed or received twice; a reconnection the server refuses (a revoked credential, a smaller
 * tier) ends the iteration with its {@link SportsDataError}.
 */
export async function* oddsStream(deps: StreamDeps, params: OddsStreamParams = {}, options: OddsStreamOptions = {}): AsyncGenerator<OddsStreamEvent> {
  let lastEventId = params.lastEventId;
  let retryMs = options.reconnectDelayMs ?? DEFAULT_RETRY_MS;
  let headers = await deps.authHeaders();
  let unauthorizedOnce = false;
  for (let attempt = 0; !options.signal?.aborted; attempt++) {
    if (attempt > 0) {
      await wait(retryMs, options.signal);
      if (options.signal?.aborted) return;
    }
    let response: Response;
    try {
      const sent = { ...headers, accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }) };
      response = await deps.fetch(urlOf(deps.baseUrl, params), { headers: sent, signal: options.signal ?? null, redirect: 'manual' });
    } catch (error) {
      if (options.signal?.aborted) return;
      if (attempt === 0) throw new SportsDataError({ status: 0, code: 'NETWORK_ERROR', message: 'GET /v1/stream/odds: the connection failed', cause: error });
      continue;
    }
    if (response.status === 401 && !unauthorizedOnce) {
      // An access token that expired: renewed once, then the refusal stands.
      unauthorizedOnce = true;
      await response.body?.cancel();
      headers = await deps.authHeaders(headers);
      attempt = -1;
      continue;
    }
    if (response.status !== 200 || response.body === null) {
      if (response.status >= 500) continue;
      answerOf(response.status, response.headers, await response.text(), deps.now(), 'GET /v1/stream/odds');
      return;
    }
    unauthorizedOnce = false;
    if (attempt > 0) yield { type: 'reconnected', lastEventId };
    try {
      for await (const block of blocksOf(response.body)) {
        if (block.retry !== undefined && options.reconnectDelayMs === undefined) retryMs = block.retry;
        const event = eventOf(block);
        if (event === undefined) continue;
        if (event.type === 'odds') lastEventId = event.id;
        yield event;
      }
    } catch {
      // The connection was lost: reconnect below, from the last change received.
    }
    if (options.signal?.aborted) return;
  }
}

function urlOf(baseUrl: string, params: OddsStreamParams): string {
  const query = new URLSearchParams();
  if (params.event_ids?.length) query.set('event_ids', params.event_ids.join(','));
  if (params.league_ids?.length) query.set('league_ids', params.league_ids.join(','));
  if (params.types?.length) query.set('types', params.types.join(','));
  if (params.event_kinds?.length) query.set('event_kinds', params.event_kinds.join(','));
  const search = query.toString();
  return `${baseUrl}/v1/stream/odds${search === '' ? '' : `?${search}`}`;
}

interface Block {
  event: string;
  id: string | undefined;
  data: string;
  retry: number | undefined;
  comments: string[];
}

/** The Server-Sent Events format (https://html.spec.whatwg.org/multipage/server-sent-events.html), a block per blank line. */
async function* blocksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Block> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        yield parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}

function parse(text: string): Block {
  const block: Block = { event: 'message', id: undefined, data: '', retry: undefined, comments: [] };
  const data: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) {
      block.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') block.event = value;
    else if (field === 'id') block.id = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) block.retry = Number(value);
  }
  block.data = data.join('\n');
  return block;
}

function eventOf(block: Block): OddsStreamEvent | undefined {
  if (block.data === '') return block.comments.includes('heartbeat') ? { type: 'heartbeat' } : undefined;
  const data: unknown = JSON.parse(block.data);
  switch (block.event) {
    case 'odds':
      return { type: 'odds', id: Number(block.id), change: data as PriceChange };
    case 'board':
      return { type: 'board', change: data as BoardChange };
    case 'settled':
      return { type: 'settled', grade: data as GradedOdds };
    case 'steam':
    case 'drop':
      return { type: block.event, move: data as OddsMove };
    case 'end': {
      const end = data as { reason?: unknown; message?: unknown };
      return { type: 'end', reason: String(end.reason), message: String(end.message) };
    }
    default:
      // A kind of event a later server may add: skipped, as an EventSource without its listener does.
      return undefined;
  }
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
