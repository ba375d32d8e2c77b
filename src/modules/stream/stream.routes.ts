import type { Readable } from 'node:stream';
import { includesCompetitions } from '../../shared/event-kinds.js';
import type { FastifyReply } from 'fastify';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import { ApiError, validationError } from '../../platform/errors.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { type AccountLookup, principalOf } from '../auth/index.js';
import type { HistoryRepository, RecentChanges } from '../history/index.js';
import { TIER_TABLE } from '../policy/index.js';
import type { KeyResolver } from '../references/index.js';
import { type EndReason, openConnection, type StreamConnection } from './stream.connection.js';
import { type BoardEvents, createStreamHub, type SettledChanges } from './stream.hub.js';
import type { MoveEvents } from './stream.moves.js';
import { STREAM_DESCRIPTION, STREAM_TYPES, StreamBody, StreamHeaders, StreamQuery } from './stream.schemas.js';
import { filterOf } from './stream.filter.js';
import type { StreamSlots } from './stream.slots.js';
import { credentialsOf, expiryOf } from './stream.standing.js';

/** When a client over its cap may try again: a stream that ends frees a place at once. */
const RETRY_AFTER_S = 10;

export interface StreamDeps {
  history: HistoryRepository;
  recent?: RecentChanges;
  board: BoardEvents;
  settled: SettledChanges;
  /** The stored steam moves and drops; none with MOVES_DETECT=false. */
  moves?: MoveEvents;
  slots: StreamSlots;
  changes: ChangeFeed;
  accounts: AccountLookup;
  keys: KeyResolver;
  clock: Clock;
  heartbeatMs: number;
}

/** GET /v1/stream/odds: odds changes as Server-Sent Events, fanned out on every node. */
export const streamRoutes: ModuleRoutes<StreamDeps> = async (app, deps) => {
  const { history, keys, clock, slots } = deps;
  const hub = createStreamHub({ ...deps, log: app.log });
  // Before the listener closes: an open stream would otherwise hold the shutdown until its deadline.
  app.addHook('preClose', (done) => {
    hub.endAll('server_shutdown');
    done();
  });

  app.get(
    '/v1/stream/odds',
    {
      // Counted as one request of the odds group when it opens; open streams are capped by tier apart from that.
      config: { policy: { auth: 'client', tier: 'odds-stream', limit: 'data', usage: 'odds', cache: 'no-store', errors: ['NOT_FOUND'] } },
      // HEAD would open a stream nobody reads.
      exposeHeadRoute: false,
      schema: {
        tags: ['streams'],
        summary: 'Live odds changes (Server-Sent Events)',
        description: STREAM_DESCRIPTION,
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: { 200: { description: 'The stream, open until the client or the server ends it.', content: { 'text/event-stream': { schema: StreamBody } } } },
      },
    },
    async (request, reply) => {
      const { eventIds, leagueIds, kinds } = await filterOf(request.query, { history, keys });
      const lastEventId = request.headers['last-event-id'];

      const principal = principalOf(request);
      const { client } = principal;
      // Where the stream starts is known before its 200: a change the client imports after it is on it (decision 0248).
      const head = await hub.ready();
      // An id no change has had yet would start a stream that sends nothing until it is passed. This
      // node's newest may lag another's, and a purge may have deleted the newest: the database's own counter decides.
      if (lastEventId !== undefined && lastEventId > head) {
        const issued = await history.lastIssuedId();
        if (lastEventId > issued) throw validationError('last-event-id', 'maximum', `last-event-id must be at most ${issued}, the id of the newest change`);
      }
      // Open streams per client, by tier, across the nodes with Redis (decision 0128).
      const cap = TIER_TABLE[client.tier].streams;
      const placeId = await slots.acquire(client.id, cap);
      if (placeId === undefined) {
        throw new ApiError('RATE_LIMIT_EXCEEDED', `at most ${cap} odds streams may be open at once on the ${client.tier} tier; close one first`, {
          headers: { 'retry-after': String(RETRY_AFTER_S) },
        });
      }
      // From the place taken to the stream's close handler nothing awaits: the place is always freed.
      const credentials = credentialsOf(principal);
      const asked = (request.query.types ?? 'odds').split(',');
      const types = new Set(STREAM_TYPES.filter((type) => asked.includes(type)));
      const connection = openConnection({ clientId: client.id, placeId, credentials, cap, query: { eventIds, leagueIds, ...(kinds ? { kinds } : {}) }, cursor: lastEventId ?? 0, types,
        // Without `event_kinds` asking for competitions, their changes are left out, as before there were any.
        ...(includesCompetitions(kinds ?? []) ? {} : { leftOut: hub.competitions }) });
      connection.onClose(() => slots.release(client.id, placeId));
      const expiry = expiryOf(credentials, client);
      if (expiry !== undefined) endOnExpiry(connection, expiry, clock);
      hub.subscribe(connection, lastEventId).catch((error: unknown) => {
        request.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'odds stream: catching up failed');
        connection.body.destroy();
      });
      return sendEvents(reply, connection.body);
    },
  );
};

/** Node's timers take at most a 32-bit delay (about 24.8 days); a key may expire years ahead. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Ends the stream at `expiry.at` (the clock's time) unless it has closed before. */
function endOnExpiry(connection: StreamConnection, expiry: { at: number; reason: EndReason }, clock: Clock): void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = expiry.at - clock.now();
    // Farther than a timer reaches: look again then.
    timer = left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(() => connection.end(expiry.reason), Math.max(0, left));
    timer.unref();
  };
  arm();
  connection.onClose(() => clearTimeout(timer));
}

/** The stream as the answer: Fastify pipes it to the socket and destroys it when the client goes. */
function sendEvents(reply: FastifyReply, body: Readable): FastifyReply {
  return (
    reply
      // nginx and similar proxies buffer answers unless told not to.
      .header('x-accel-buffering', 'no')
      .type('text/event-stream; charset=utf-8')
      .send(body)
  );
}
