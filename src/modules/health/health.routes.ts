import { Type } from 'typebox';
import type { Database } from '../../platform/db/database.js';
import { databaseUnavailable } from '../../platform/db/unavailable.js';
import { serviceUnavailable } from '../../platform/errors.js';
import type { ModuleRoutes } from '../../platform/http/types.js';

const Status = Type.Object({ status: Type.String() });

/** One named field per check, so that a dependency added later (Redis) is a field beside it. */
const Readiness = Type.Object({
  status: Type.Literal('ready'),
  database: Type.Literal('ok', { description: 'The database is reachable and takes writes.' }),
});

/** Liveness and readiness for load balancers and orchestrators. No authentication. */
export const healthRoutes: ModuleRoutes<{ database: Database }> = async (app, { database }) => {
  app.get('/healthz', { schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'The database is reachable and takes writes',
        description:
          'Ready: 200. Not ready: 503 SERVICE_UNAVAILABLE with Retry-After, when the database is unreachable or does not ' +
          'take writes (a read-only SQLite file, a PostgreSQL standby). A database that is busy with another writer is ready.',
        response: { 200: Readiness },
      },
    },
    async (request) => {
      try {
        // A read (`select 1`) passed while every login failed on a read-only SQLite file.
        await database.checkWritable();
      } catch (error) {
        request.log.warn({ err: error }, 'not ready: the database check failed');
        const unavailable = databaseUnavailable(error);
        // Whatever failed, the answer is "not ready" (503), never a 500.
        throw serviceUnavailable(unavailable?.message ?? 'the database check failed', unavailable?.retryAfterSeconds ?? 5);
      }
      return { status: 'ready' as const, database: 'ok' as const };
    },
  );
};
