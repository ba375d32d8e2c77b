import { PassThrough } from 'node:stream';
import type { HistoryItem, StreamFilter } from '../history/index.js';
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
  | 'server_shutdown'
  | 'slow_consumer';

const END_MESSAGES: Record<EndReason, string> = {
  token_expired: 'the access token has expired: refresh it and reconnect with Last-Event-ID',
  credential_expired: 'the API key or client secret this stream was opened with has expired: reconnect with a current credential and Last-Event-ID',
  credentials_revoked:
    'the credential this stream was opened with was deleted, or the account’s credentials were reset: reconnect with a current credential and Last-Event-ID',
  flow_not_enabled: 'the account’s auth_method no longer enables the API key flow: reconnect with an access token and Last-Event-ID',
  tier_changed: 'the account’s tier allows fewer open streams than it had (none on the free tier): this was one of the newest',
  client_disabled: 'this client account is disabled',
  server_shutdown: 'this node is shutting down: reconnect with Last-Event-ID (another node will answer)',
  slow_consumer: 'the client reads more slowly than changes arrive: reconnect with Last-Event-ID to catch up from the history',
};

/**
 * Bytes a stream may have waiting for its client before it is ended (slow_consumer): one slow
 * reader must not hold a whole import's changes in the heap. Reconnecting catches up from the table.
 */
const MAX_WAITING_BYTES = 1024 * 1024;

/** Tells the browser's EventSource how long to wait before it reconnects. */
const RETRY_MS = 2000;

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
  /** Sends the changes newer than the cursor that the filter follows, then moves the cursor. */
  send(rows: ReadonlyArray<{ item: HistoryItem; leagueId: number | null }>, upTo?: number): void;
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
}

export function openConnection(opened: OpenedStream): StreamConnection {
  const { query } = opened;
  const body = new PassThrough();
  const eventIds = new Set(query.eventIds);
  const leagueIds = new Set(query.leagueIds);
  const everything = eventIds.size === 0 && leagueIds.size === 0;
  const closeListeners: Array<() => void> = [];
  let ended = false;
  let closed = false;

  const write = (text: string) => {
    if (!ended) body.write(text);
  };
  const follows = (item: HistoryItem, leagueId: number | null) =>
    everything || eventIds.has(item.event_id) || (leagueId !== null && leagueIds.has(leagueId));
  const close = () => {
    ended = true;
    if (closed) return;
    closed = true;
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
    live: false,
    body,
    get ended() {
      return ended;
    },
    send(rows, upTo) {
      let text = '';
      for (const { item, leagueId } of rows) {
        if (item.id <= connection.cursor) continue;
        connection.cursor = item.id;
        if (follows(item, leagueId)) text += `id: ${item.id}\nevent: odds\ndata: ${JSON.stringify(item)}\n\n`;
      }
      if (upTo !== undefined && upTo > connection.cursor) connection.cursor = upTo;
      if (text === '') return;
      write(text);
      if (body.writableLength > MAX_WAITING_BYTES) connection.end('slow_consumer');
    },
    heartbeat() {
      write(': heartbeat\n\n');
    },
    end(reason) {
      if (ended) return;
      write(`event: end\ndata: ${JSON.stringify({ reason, message: END_MESSAGES[reason] })}\n\n`);
      body.end();
      // Its place is free now, not once the client has read the rest.
      close();
    },
    onClose(listener) {
      if (closed) listener();
      else closeListeners.push(listener);
    },
  };
  body.once('close', close);
  // Sent at once: the headers go out with it, and the client knows the stream is open.
  write(`retry: ${RETRY_MS}\n: connected\n\n`);
  return connection;
}
