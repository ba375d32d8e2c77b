import { NO_STORE } from '../../platform/http/headers.js';
import { ADMIN_SECURITY, CLIENT_SECURITY } from '../../platform/http/openapi.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import type { Clock } from '../../platform/clock.js';
import { adminGuard, type ClientAccount } from '../auth/index.js';
import { dayRangeOf } from './date-range.js';
import { ClientParams, TopClientsPage, TopClientsQuery, Usage, UsageQuery } from './usage.schemas.js';
import type { UsageService } from './usage.service.js';

export interface UsageRoutesDeps {
  usage: UsageService;
  clock: Clock;
  adminToken: string | undefined;
  /** The account of a client_id, or 404 (the clients service). */
  accountOf(clientId: string): Promise<ClientAccount>;
}

const RANGE = 'The range is whole UTC days, both included: the last 30 days unless given, at most 400.';

/** A client's usage, for the client itself and for operators; the operators' list of top clients. */
export const usageRoutes: ModuleRoutes<UsageRoutesDeps> = async (app, { usage, clock, adminToken, accountOf }) => {
  app.get(
    '/v1/account/usage',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['account'],
        summary: "The calling client's usage and limits",
        description: `Limits in force, the current minute and day, and charged requests per day by route group. ${RANGE}`,
        security: CLIENT_SECURITY,
        querystring: UsageQuery,
        response: { 200: Usage },
      },
    },
    async (request, reply) => {
      // Account state: no cache may keep it.
      reply.header('cache-control', NO_STORE);
      return usage.report(request.principal.client, dayRangeOf(request.query, clock.now()));
    },
  );

  const admin = { onRequest: adminGuard(adminToken) };

  app.get(
    '/admin/v1/clients/:client_id/usage',
    {
      ...admin,
      schema: {
        tags: ['admin'],
        security: ADMIN_SECURITY,
        summary: "A client's usage and limits",
        description: `What the client sees at GET /v1/account/usage. ${RANGE}`,
        params: ClientParams,
        querystring: UsageQuery,
        response: { 200: Usage },
      },
    },
    async (request) => usage.report(await accountOf(request.params.client_id), dayRangeOf(request.query, clock.now())),
  );

  app.get(
    '/admin/v1/usage',
    {
      ...admin,
      schema: {
        tags: ['admin'],
        security: ADMIN_SECURITY,
        summary: 'Clients by requests in a date range, most first',
        description: `Counts as written by every node (each writes every USAGE_FLUSH_MS). ${RANGE}`,
        querystring: TopClientsQuery,
        response: { 200: TopClientsPage },
      },
    },
    async (request) => usage.top(dayRangeOf(request.query, clock.now()), request.query),
  );
};
