import type { Clock } from '../../platform/clock.js';
import { ApiError } from '../../platform/errors.js';
import { ADMIN_SECURITY } from '../../platform/http/openapi.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { pageOf } from '../../platform/pagination.js';
import { adminGuard, type ClientAccount } from '../auth/index.js';
import type { ClientsService, CredentialsService } from '../clients/index.js';
import type { LimitPolicy } from '../limits/index.js';
import { Deleted } from '../account/index.js';
import { adminCredentialsRoutes } from './admin-credentials.routes.js';
import {
  Client,
  ClientParams,
  ClientPatchBody,
  ClientsPage,
  ClientsQuery,
  ClientWithCredentials,
  CreatedClient,
  clientView,
  clientWithCredentialsView,
  createdClientView,
  NewClientBody,
} from './admin.schemas.js';

const tags = ['admin'];
const security = ADMIN_SECURITY;
// Responses carrying an API key or client secret must not be kept by any cache on the way.
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * Client onboarding and management for operators (docs/operations.md), over the same ClientsService
 * as the CLI. Every change bumps the change feed, so it takes effect on the next request.
 */
export const adminRoutes: ModuleRoutes<{
  adminToken: string | undefined;
  clients: ClientsService;
  credentials: CredentialsService;
  clock: Clock;
  limits: LimitPolicy;
}> = async (app, { adminToken, clients, credentials, clock, limits }) => {
  const view = (account: ClientAccount) => clientView(account, limits.effective(account));

  // Without ADMIN_TOKEN every route here answers 404: the admin API does not exist.
  app.addHook('onRequest', adminGuard(adminToken));

  app.post(
    '/admin/v1/clients',
    {
      schema: {
        tags,
        security,
        summary: 'Onboard a client account',
        description: 'Creates a client with a new API key and client secret. They appear in this response only.',
        body: NewClientBody,
        response: { 201: CreatedClient },
      },
    },
    async (request, reply) => {
      const { name, tier, auth_method, tenant_id } = request.body;
      const { account, credentials } = await clients.create({ name, tier, authMethod: auth_method, tenantId: tenant_id });
      return reply.code(201).headers(NO_STORE).send(createdClientView(account, limits.effective(account), credentials));
    },
  );

  app.get(
    '/admin/v1/clients',
    {
      schema: { tags, security, summary: 'List client accounts', description: 'Oldest first.', querystring: ClientsQuery, response: { 200: ClientsPage } },
    },
    async (request) => {
      const { accounts, total } = await clients.list(request.query.page, request.query.page_size);
      return pageOf(accounts.map(view), total, request.query);
    },
  );

  app.get(
    '/admin/v1/clients/:client_id',
    { schema: { tags, security, summary: 'Get a client account', params: ClientParams, response: { 200: Client } } },
    async (request) => view(await clients.get(request.params.client_id)),
  );

  app.patch(
    '/admin/v1/clients/:client_id',
    {
      schema: {
        tags,
        security,
        summary: 'Change auth_method, tier, disabled or the limit overrides',
        description:
          'Takes effect on the next request, also for access and refresh tokens already issued. `rate_limit_per_minute` and ' +
          "`daily_quota` override the tier's limits for this client; null returns to the tier's.",
        params: ClientParams,
        body: ClientPatchBody,
        response: { 200: Client },
      },
    },
    async (request) => {
      const { auth_method, tier, disabled, rate_limit_per_minute, daily_quota } = request.body;
      if (Object.keys(request.body).length === 0) {
        throw new ApiError('VALIDATION_ERROR', 'send at least one of auth_method, tier, disabled, rate_limit_per_minute, daily_quota', {
          details: [{ field: 'body', rule: 'minProperties' }],
        });
      }
      const account = await clients.update(request.params.client_id, {
        authMethod: auth_method,
        tier,
        disabled,
        rateLimitPerMinute: rate_limit_per_minute,
        dailyQuota: daily_quota,
      });
      return view(account);
    },
  );

  app.post(
    '/admin/v1/clients/:client_id/credentials',
    {
      schema: {
        tags,
        security,
        summary: 'Reset the credentials of a client (emergency)',
        description:
          'Replaces every API key and client secret with one new pair and revokes every refresh token of the client; the old ones, and every ' +
          'access token issued before, stop working at once. The new credentials appear in this response only. ' +
          'To rotate one credential without downtime, create a new one and delete the old (…/api-keys, …/secrets).',
        params: ClientParams,
        response: { 200: ClientWithCredentials },
      },
    },
    async (request, reply) => {
      const { account, credentials } = await clients.rotateCredentials(request.params.client_id);
      return reply.headers(NO_STORE).send(clientWithCredentialsView(account, limits.effective(account), credentials));
    },
  );

  app.delete(
    '/admin/v1/clients/:client_id',
    {
      schema: {
        tags,
        security,
        summary: 'Offboard a client',
        description:
          'Every credential and token of the client ends at once; every later call answers 401 with reason client_deleted. ' +
          'The client stays listed with deleted_at, and its usage history is kept for billing. Deleting it again changes nothing.',
        params: ClientParams,
        response: { 204: Deleted },
      },
    },
    async (request, reply) => {
      await clients.delete(request.params.client_id);
      return reply.code(204).send(null);
    },
  );

  adminCredentialsRoutes(app, { credentials, clock });
};
