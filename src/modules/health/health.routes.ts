import { sql } from 'kysely';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { ModuleRoutes } from '../../platform/http/types.js';

const Status = Type.Object({ status: Type.String() });
const Readiness = Type.Object({
  status: Type.String(),
  redis: Type.Optional(
    Type.Enum(['ok', 'degraded'], {
      description: 'Present when REDIS_URL is set. `degraded`: Redis is unreachable; the node still serves (changes arrive by the database poll).',
    }),
  ),
});

/** A draining node does not come back; a client retrying through the load balancer reaches another. */
const DRAINING_RETRY_AFTER_S = 1;

/** Liveness and readiness for load balancers and orchestrators. No authentication. */
export const healthRoutes: ModuleRoutes = async (app, ctx) => {
  app.get('/healthz', { schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get(
    '/readyz',
    { schema: { tags: ['operations'], summary: 'The database is reachable and the node is not shutting down', response: { 200: Readiness } } },
    async () => {
      // First: a draining node must leave the load balancer's pool whatever its dependencies say.
      if (ctx.draining.active) throw new ApiError('SERVICE_UNAVAILABLE', 'this node is shutting down', { headers: { 'Retry-After': String(DRAINING_RETRY_AFTER_S) } });
      try {
        await sql`select 1`.execute(ctx.database.db);
      } catch {
        throw new ApiError('INTERNAL_ERROR', 'the database is not reachable');
      }
      // Redis only speeds changes up: a load balancer must not drain every node because it is down.
      return ctx.redis ? { status: 'ready', redis: ctx.redis.state() } : { status: 'ready' };
    },
  );
};
