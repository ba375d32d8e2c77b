import { sql } from 'kysely';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { ModuleRoutes } from '../../platform/http/types.js';

const Status = Type.Object({ status: Type.String() });

/** Liveness and readiness for load balancers and orchestrators. No authentication. */
export const healthRoutes: ModuleRoutes = async (app, ctx) => {
  app.get('/healthz', { schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get(
    '/readyz',
    { schema: { tags: ['operations'], summary: 'The database is reachable', response: { 200: Status } } },
    async () => {
      try {
        await sql`select 1`.execute(ctx.database.db);
      } catch {
        throw new ApiError('INTERNAL_ERROR', 'the database is not reachable');
      }
      return { status: 'ready' };
    },
  );
};
