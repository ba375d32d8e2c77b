import { type Static, Type } from 'typebox';
import type { Database } from '../../platform/db/database.js';
import { databaseUnavailable } from '../../platform/db/unavailable.js';
import { serviceUnavailable } from '../../platform/errors.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import type { Draining } from '../../platform/lifecycle/draining.js';

const Status = Type.Object({ status: Type.String({ description: '`ok`: the process is up.' }) });

/** The upstream feed as this node sees it: details only, never a reason to answer 503. */
const UpstreamReadiness = Type.Object(
  {
    state: Type.Enum(['starting', 'polling', 'failing', 'standby'], {
      description: '`polling`: this node holds the feed and its last round went well; `failing`: its last round did not; `standby`: another node polls; `starting`: no round yet.',
    }),
    last_success: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When a round last read every answer, on this node.' }),
    last_error: Type.Union([Type.Object({
        kind: Type.String({ description: 'The kind of failure, as the `kind` label of upstream_errors_total.' }),
        at: Type.String({ format: 'date-time', description: 'When it happened.' }),
      }), Type.Null()], { description: 'The last failure: its kind, as upstream_errors_total labels it, and when.' }),
    requests_remaining: Type.Union([Type.Integer(), Type.Null()], { description: "The upstream's quota left, as its last answer said (x-requests-remaining)." }),
    rows_imported: Type.Integer({ description: 'Rows this node handed the importer since it started.' }),
  },
  { description: 'Present when UPSTREAM_URL is set.' },
);

/** What the readiness check reads of the upstream feed. */
export interface UpstreamProbe {
  details(): Static<typeof UpstreamReadiness>;
}

/** One named field per check. */
const Readiness = Type.Object({
  status: Type.Literal('ready', { description: '`ready`: this node may be sent requests.' }),
  database: Type.Literal('ok', { description: 'The database is reachable and takes writes.' }),
  redis: Type.Optional(
    Type.Enum(['ok', 'degraded'], {
      description: 'Present when REDIS_URL is set. `degraded`: Redis is unreachable; the node still serves (changes arrive by the database poll).',
    }),
  ),
  upstream: Type.Optional(UpstreamReadiness),
});

/** For load balancers and orchestrators: no credentials, and no cache may keep an answer. */
const OPERATIONS = { policy: { auth: 'none', cache: 'no-store' } } as const;

/** A draining node does not come back; a client retrying through the load balancer reaches another. */
const DRAINING_RETRY_AFTER_S = 1;

/** Liveness and readiness for load balancers and orchestrators. No authentication. */
export const healthRoutes: ModuleRoutes<{ database: Database; draining: Draining; redis: { state(): 'ok' | 'degraded' } | undefined; upstream: UpstreamProbe | undefined }> = async (
  app,
  { database, draining, redis, upstream },
) => {
  app.get(
    '/healthz',
    { config: OPERATIONS, schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: OPERATIONS,
      schema: {
        tags: ['operations'],
        summary: 'The database is reachable and takes writes, and the node is not shutting down',
        description:
          'Ready: 200. Not ready: 503 SERVICE_UNAVAILABLE with Retry-After, while the node drains after SIGTERM, or when the ' +
          'database is unreachable or does not take writes (a read-only SQLite file, a PostgreSQL standby, a full disk: once a ' +
          'write has failed for want of space, until a write that needs space succeeds again). A database that is busy with ' +
          'another writer is ready, and so is a node whose Redis is down (`"redis": "degraded"`) or whose upstream feed fails (`upstream.state`).',
        response: { 200: Readiness },
      },
    },
    async (request) => {
      // First: a draining node must leave the load balancer's pool whatever its dependencies say.
      if (draining.active) throw serviceUnavailable('this node is shutting down', DRAINING_RETRY_AFTER_S);
      try {
        // A read (`select 1`) passed while every login failed on a read-only SQLite file.
        await database.checkWritable();
      } catch (error) {
        request.log.warn({ err: error }, 'not ready: the database check failed');
        const unavailable = databaseUnavailable(error);
        // Whatever failed, the answer is "not ready" (503), never a 500.
        throw serviceUnavailable(unavailable?.message ?? 'the database check failed', unavailable?.retryAfterSeconds ?? 5);
      }
      // Redis only speeds changes up, and the upstream feed only brings data in: a load balancer must
      // not drain every node because either is down.
      return {
        status: 'ready' as const,
        database: 'ok' as const,
        ...(redis ? { redis: redis.state() } : {}),
        ...(upstream ? { upstream: upstream.details() } : {}),
      };
    },
  );
};
