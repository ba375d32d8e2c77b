import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import type { ModuleRoutes } from '../../platform/http/types.js';

const Status = Type.Object({ status: Type.String({ description: '`ok` from /healthz, `ready` from /readyz.' }) });

/** Liveness and readiness for load balancers and orchestrators. No authentication. */
export const healthRoutes: ModuleRoutes<{ db: Kysely<Schema> }> = async (app, { db }) => {
  app.get('/healthz', { schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get(
    '/readyz',
    { schema: { tags: ['operations'], summary: 'The database is reachable', response: { 200: Status } } },
    async () => {
      try {
        await sql`select 1`.execute(db);
      } catch {
        throw new ApiError('INTERNAL_ERROR', 'the database is not reachable');
      }
      return { status: 'ready' };
    },
  );
};
