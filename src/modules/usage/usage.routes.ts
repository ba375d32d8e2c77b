import type { App, ModuleRoutes } from '../../platform/http/types.js';
import type { Clock } from '../../platform/clock.js';
import { utcDays } from '../../shared/date-range.js';
import { type ClientAccount, principalOf } from '../auth/index.js';
import { ClientParams, HoursQuery, TopClientsPage, TopClientsQuery, Usage, UsageHours, UsageQuery } from './usage.schemas.js';
import type { UsageService } from './usage.service.js';

export interface UsageRoutesDeps {
  usage: UsageService;
  clock: Clock;
  /** The account of a client_id, or 404 (the clients service). */
  accountOf(clientId: string): Promise<ClientAccount>;
}

const HOURS = 'Kept USAGE_HOURLY_RETENTION_DAYS (35 days unless configured); an older day shows zeros.';
const RANGE = 'The range is whole UTC days, both included: the last 30 days unless given, at most 400.';

/** A client's usage, for the client itself and for operators; the operators' list of top clients. */
export const usageRoutes: ModuleRoutes<UsageRoutesDeps> = async (app, deps) => {
  accountUsageRoutes(app, deps);
  adminUsageRoutes(app, deps);
};

/** The calling client's own usage: by day and by hour. */
function accountUsageRoutes(app: App, { usage, clock }: Pick<UsageRoutesDeps, 'usage' | 'clock'>): void {
  app.get(
    '/v1/account/usage',
    {
      // Account state, counted against the minute only: a client past its quota can still read it.
      config: { policy: { auth: 'client', tier: 'basics', limit: 'account', usage: 'account', cache: 'no-store' } },
      schema: {
        tags: ['account'],
        summary: "The calling client's usage and limits",
        description: `Limits in force, the current minute and day, and charged requests per day by route group. ${RANGE}`,
        querystring: UsageQuery,
        response: { 200: Usage },
      },
    },
    async (request) => usage.report(principalOf(request).client, utcDays(request.query, clock.now())),
  );

  app.get(
    '/v1/account/usage/hours',
    {
      config: { policy: { auth: 'client', tier: 'basics', limit: 'account', usage: 'account', cache: 'no-store' } },
      schema: {
        tags: ['account'],
        summary: "The calling client's requests per hour of a day, and its 429s",
        description: `Requests per UTC hour by route group, and the requests refused 429 by minute and window. ${HOURS}`,
        querystring: HoursQuery,
        response: { 200: UsageHours },
      },
    },
    async (request) => usage.hours(principalOf(request).client, request.query.date),
  );
}

/** Any client's usage, as its operators see it, and the clients by requests. */
function adminUsageRoutes(app: App, { usage, clock, accountOf }: UsageRoutesDeps): void {
  const admin = { config: { policy: { auth: 'admin', cache: 'no-store' } } } as const;

  app.get(
    '/admin/v1/clients/:client_id/usage/hours',
    {
      ...admin,
      schema: {
        tags: ['admin'],
        summary: "A client's requests per hour of a day, and its 429s",
        description: `What the client sees at GET /v1/account/usage/hours. ${HOURS}`,
        params: ClientParams,
        querystring: HoursQuery,
        response: { 200: UsageHours },
      },
    },
    async (request) => usage.hours(await accountOf(request.params.client_id), request.query.date),
  );

  app.get(
    '/admin/v1/clients/:client_id/usage',
    {
      ...admin,
      schema: {
        tags: ['admin'],
        summary: "A client's usage and limits",
        description: `What the client sees at GET /v1/account/usage. ${RANGE}`,
        params: ClientParams,
        querystring: UsageQuery,
        response: { 200: Usage },
      },
    },
    async (request) => usage.report(await accountOf(request.params.client_id), utcDays(request.query, clock.now())),
  );

  app.get(
    '/admin/v1/usage',
    {
      ...admin,
      schema: {
        tags: ['admin'],
        summary: 'Clients by requests in a date range, most first',
        description: `Counts as written by every node (each writes every USAGE_FLUSH_MS). ${RANGE}`,
        querystring: TopClientsQuery,
        response: { 200: TopClientsPage },
      },
    },
    async (request) => usage.top(utcDays(request.query, clock.now()), request.query),
  );
}
