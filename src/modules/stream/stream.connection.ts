import { PassThrough } from 'node:stream';
import type { StreamFilter } from '../history/index.js';
import type { Frames } from './stream.frames.js';
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
  /** Sends the odds frames newer than the cursor that the filter follows, then moves the cursor. */
  send(frames: Frames, upTo?: number): void;
  /** Sends the frames of board changes or grades the filter follows, without an id: they are not replayed. */
  sendUnreplayed(frames: Frames): void;
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
  /** Events whose changes it leaves out: the competitions (the hub keeps the set), unless its `event_kinds` asks for them. */
  leftOut?: ReadonlySet<number>;
}

export function openConnection(opened: OpenedStream): StreamConnection {
  const { query } = opened;
  const body = new PassThrough();
  const eventIds = new Set(query.eventIds);
  const leagueIds = new Set(query.leagueIds);
  const follows = followedBy(eventIds, leagueIds, opened.leftOut ?? NONE);
  const closeListeners: Array<() => void> = [];
  const waitingForDrain: Array<() => void> = [];
  const wake = () => {
    for (const resolve of waitingForDrain.splice(0)) resolve();
  };
  let ended = false;
  let closed = false;

  const write = (bytes: string | Buffer) => {
    if (!ended && bytes.length > 0) body.write(bytes);
  };
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
    send(frames, upTo) {
      const after = connection.cursor;
      const last = frames.changes.at(-1)?.id ?? after;
      connection.cursor = Math.max(after, last, upTo ?? after);
      if (opened.types.has('odds')) write(framesFollowed(frames, follows, after));
    },
    sendUnreplayed(frames) {
      write(framesFollowed(frames, follows, 0));
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

/** Which changes a filter follows: every change when it names no event and no league, but those of the events it leaves out. */
interface Follows {
  (change: { eventId: number; leagueId: number | null }): boolean;
  /** Whether it follows every change of these frames: the shared buffer of them all is then its text. */
  everyOf(frames: Frames): boolean;
  /** Names the filter: streams whose filters have one key follow the same changes. */
  readonly key: string;
}

const NONE: ReadonlySet<number> = new Set();

/** Whether frames hold a change of an event left out, found once per frames and set of events, whatever the number of streams. */
const leavingOut = new WeakMap<Frames, { of: ReadonlySet<number>; size: number; found: boolean }>();

function followedBy(eventIds: ReadonlySet<number>, leagueIds: ReadonlySet<number>, leftOut: ReadonlySet<number>): Follows {
  const everything = eventIds.size === 0 && leagueIds.size === 0;
  const follows = ({ eventId, leagueId }: { eventId: number; leagueId: number | null }) =>
    !leftOut.has(eventId) && (everything || eventIds.has(eventId) || (leagueId !== null && leagueIds.has(leagueId)));
  const everyOf = (frames: Frames) => {
    if (!everything) return false;
    if (leftOut.size === 0) return true;
    let known = leavingOut.get(frames);
    if (known === undefined || known.of !== leftOut || known.size !== leftOut.size) {
      known = { of: leftOut, size: leftOut.size, found: frames.changes.some((change) => leftOut.has(change.eventId)) };
      leavingOut.set(frames, known);
    }
    return !known.found;
  };
  const key = `${setKey(leftOut)}|${[...eventIds].sort((a, b) => a - b).join(',')}|${[...leagueIds].sort((a, b) => a - b).join(',')}`;
  return Object.assign(follows, { everyOf, key });
}

/** A number for each set of events left out (the hub's one set of competitions, or none): the set is shared, not copied. */
const setKeys = { of: new WeakMap<ReadonlySet<number>, number>(), made: 0 };
function setKey(set: ReadonlySet<number>): number {
  let key = setKeys.of.get(set);
  if (key === undefined) setKeys.of.set(set, (key = ++setKeys.made));
  return key;
}

/**
 * The frames newer than `after` that the filter follows (an unreplayed frame has no id, and is
 * always newer): the shared buffer of them all when that is every frame, else their texts joined.
 */
function framesFollowed(frames: Frames, follows: Follows, after: number): string | Buffer {
  const { changes } = frames;
  const newer = (changes[0]?.id ?? after + 1) > after;
  if (follows.everyOf(frames) && newer) return frames.all();
  const joined = () => {
    let text = '';
    changes.forEach((change, index) => {
      if ((change.id ?? after + 1) > after && follows(change)) text += frames.text(index);
    });
    return text;
  };
  // Every frame newer than the stream's cursor (a live stream's case): the same bytes for every stream of this filter.
  return newer ? frames.followed(follows.key, joined) : joined();
}
