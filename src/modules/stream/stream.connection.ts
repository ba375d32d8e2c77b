import { PassThrough } from 'node:stream';
import type { HistoryItem, StreamFilter } from '../history/index.js';
import type { StreamType } from './stream.schemas.js';
import type { StreamCredentials } from './stream.standing.js';

/**
 * One open odds stream: its filter, how far it has been sent, and the Server-Sent Events it
 * writes (https://html.spec.whatwg.org/multipage/server-sent-events.html). The bytes go through a
 * PassThrough that Fastify pipes to the socket, so the response keeps Fastify's hooks (headers,
 * metrics, the log line when it ends).
 */

/** Why a stream ends: the reason of its final `end` event. */
export type EndReason =
  | 'token_expired'
  | 'credential_expired'
  | 'credentials_revoked'
  | 'flow_not_enabled'
  | 'tier_changed'
  | 'client_disabled'
  | 'server_shutdown';

const END_MESSAGES: Record<EndReason, string> = {
  token_expired: 'the access token has expired: refresh it and reconnect with Last-Event-ID',
  credential_expired: 'the API key or client secret this stream was opened with has expired: reconnect with a current credential and Last-Event-ID',
  credentials_revoked:
    'the credential this stream was opened with was deleted, or the account’s credentials were reset: reconnect with a current credential and Last-Event-ID',
  flow_not_enabled: 'the account’s auth_method no longer enables the API key flow: reconnect with an access token and Last-Event-ID',
  tier_changed: 'the account’s new tier allows fewer open streams (none on the free tier): the newest streams above its cap end',
  client_disabled: 'this client account is disabled',
  server_shutdown: 'this node is shutting down: reconnect with Last-Event-ID (another node will answer)',
};

/** Tells the browser's EventSource how long to wait before it reconnects after a lost connection. */
const RETRY_MS = 2000;

/**
 * A stream ended by its node's shutdown is best reconnected at once, to another node: the retry
 * sent with that end is short, and spread so that the node's clients do not all arrive together.
 */
const shutdownRetryMs = () => 250 + Math.floor(Math.random() * 1000);

export interface StreamConnection {
  readonly clientId: string;
  /** The stream's place among its client's (stream.slots.ts). */
  readonly placeId: string;
  /** What it was opened with, checked again whenever the account changes (stream.standing.ts). */
  readonly credentials: StreamCredentials;
  /** The cap of the tier it was last seen under: a smaller one ends the newest streams. */
  cap: number;
  readonly filter: { eventIds: ReadonlySet<number>; leagueIds: ReadonlySet<number> };
  /** As the repository takes it. */
  readonly query: StreamFilter;
  /** The id of the last change sent (or skipped as not followed): the next one sent is newer. */
  cursor: number;
  /** Caught up: the hub's fan-out sends to it from here on. */
  live: boolean;
  readonly body: PassThrough;
  readonly ended: boolean;
  /** Bytes written that the socket has not taken yet. */
  readonly backlog: number;
  /** What it carries: price changes (`odds`), board changes (`board`), grades (`settled`). */
  readonly types: ReadonlySet<StreamType>;
  /** Sends the changes newer than the cursor that the filter follows, then moves the cursor. */
  send(rows: ReadonlyArray<{ item: HistoryItem; leagueId: number | null }>, upTo?: number): void;
  /** Sends the board changes or the grades the filter follows, without an id: they are not replayed. */
  sendUnreplayed(type: 'board' | 'settled', changes: ReadonlyArray<{ change: { event_id: number }; leagueId: number | null }>): void;
  /** Resolves once the socket has taken what waits (at once if nothing does), or the stream closed. */
  drained(): Promise<void>;
  heartbeat(): void;
  /** Ends the stream with a final `end` event naming the reason; its close listeners run at once. */
  end(reason: EndReason): void;
  /** Runs once, when the stream ends or the client goes, whichever comes first. */
  onClose(listener: () => void): void;
}

export interface OpenedStream {
  clientId: string;
  placeId: string;
  credentials: StreamCredentials;
  cap: number;
  query: StreamFilter;
  cursor: number;
  types: ReadonlySet<StreamType>;
}

export function openConnection(opened: OpenedStream): StreamConnection {
  const { query } = opened;
  const body = new PassThrough();
  const eventIds = new Set(query.eventIds);
  const leagueIds = new Set(query.leagueIds);
  const follows = followedBy(eventIds, leagueIds);
  const closeListeners: Array<() => void> = [];
  const waitingForDrain: Array<() => void> = [];
  const wake = () => {
    for (const resolve of waitingForDrain.splice(0)) resolve();
  };
  let ended = false;
  let closed = false;

  const write = (text: string) => {
    if (!ended) body.write(text);
  };
  const followsOdds = opened.types.has('odds') ? follows : () => false;
  const close = () => {
    ended = true;
    if (closed) return;
    closed = true;
    wake();
    for (const listener of closeListeners.splice(0)) listener();
  };

  const connection: StreamConnection = {
    clientId: opened.clientId,
    placeId: opened.placeId,
    credentials: opened.credentials,
    cap: opened.cap,
    filter: { eventIds, leagueIds },
    query,
    cursor: opened.cursor,
    types: opened.types,
    live: false,
    body,
    get ended() {
      return ended;
    },
    get backlog() {
      return body.writableLength;
    },
    send(rows, upTo) {
      const text = oddsEvents(connection, rows, followsOdds);
      if (upTo !== undefined && upTo > connection.cursor) connection.cursor = upTo;
      if (text !== '') write(text);
    },
    sendUnreplayed(type, changes) {
      let text = '';
      for (const { change, leagueId } of changes) if (follows(change, leagueId)) text += `event: ${type}\ndata: ${JSON.stringify(change)}\n\n`;
      if (text !== '') write(text);
    },
    drained() {
      // 'drain' comes only after a write that filled the buffer; otherwise nothing waits long.
      if (closed || !body.writableNeedDrain) return Promise.resolve();
      return new Promise((resolve) => waitingForDrain.push(resolve));
    },
    heartbeat() {
      write(': heartbeat\n\n');
    },
    end(reason) {
      if (ended) return;
      const retry = reason === 'server_shutdown' ? `retry: ${shutdownRetryMs()}\n` : '';
      write(`${retry}event: end\ndata: ${JSON.stringify({ reason, message: END_MESSAGES[reason] })}\n\n`);
      body.end();
      // Its place is free now, not once the client has read the rest.
      close();
    },
    onClose(listener) {
      if (closed) listener();
      else closeListeners.push(listener);
    },
  };
  body.on('drain', wake);
  body.once('close', close);
  // Sent at once: the headers go out with it, and the client knows the stream is open.
  write(`retry: ${RETRY_MS}\n: connected\n\n`);
  return connection;
}

/** Whether a change is one the filter follows: every change when it names no event and no league. */
function followedBy(eventIds: ReadonlySet<number>, leagueIds: ReadonlySet<number>): (item: { event_id: number }, leagueId: number | null) => boolean {
  const everything = eventIds.size === 0 && leagueIds.size === 0;
  return (item, leagueId) => everything || eventIds.has(item.event_id) || (leagueId !== null && leagueIds.has(leagueId));
}

/** The odds events of the rows newer than the cursor that `sent` keeps; the cursor moves past every newer row. */
function oddsEvents(
  connection: { cursor: number },
  rows: ReadonlyArray<{ item: HistoryItem; leagueId: number | null }>,
  sent: (item: HistoryItem, leagueId: number | null) => boolean,
): string {
  let text = '';
  for (const { item, leagueId } of rows) {
    if (item.id <= connection.cursor) continue;
    connection.cursor = item.id;
    if (sent(item, leagueId)) text += `id: ${item.id}\nevent: odds\ndata: ${JSON.stringify(item)}\n\n`;
  }
  return text;
}
