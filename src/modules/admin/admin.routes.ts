import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { validationError } from '../../platform/errors.js';
import type { App, ModuleRoutes } from '../../platform/http/types.js';
import { uncachedByRequest } from '../../platform/lists/uncached-lists.js';
import { operatorActor } from '../audit/index.js';
import type { ClientAccount } from '../auth/index.js';
import type { ClientsService, CredentialsService } from '../clients/index.js';
import type { LimitPolicy } from '../limits/index.js';
import { Deleted } from '../account/index.js';
import { ADMIN_POLICY, CLIENT_CHANGE } from './admin.policy.js';
import { adminCredentialsRoutes } from './admin-credentials.routes.js';
import { clientsList } from './clients.list.js';
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
const admin = { policy: ADMIN_POLICY };

/**
 * Client onboarding and management for operators (docs/operations.md), over the same ClientsService
 * as the CLI. Every change bumps the change feed, so it takes effect on the next request.
 */
export const adminRoutes: ModuleRoutes<AdminRoutesDeps> = async (app, deps) => {
  onboardingRoutes(app, deps);
  clientChangeRoutes(app, deps);
  adminCredentialsRoutes(app, deps);
};

interface AdminRoutesDeps {
  clients: ClientsService;
  credentials: CredentialsService;
  clock: Clock;
  limits: LimitPolicy;
}

/** The admin API's view of an account, with the limits in force. */
const viewOf = (limits: LimitPolicy) => (account: ClientAccount) => clientView(account, limits.effective(account));

/** Onboarding a client, and reading clients. */
function onboardingRoutes(app: App, { clients, limits }: AdminRoutesDeps): void {
  const view = viewOf(limits);
  const list = clientsList({ clients, limits });

  app.post(
    '/admin/v1/clients',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Onboard a client account',
        description: 'Creates a client with a new API key and client secret. They appear in this response only.',
        body: NewClientBody,
        response: { 201: CreatedClient },
      },
    },
    async (request, reply) => {
      const { name, tier, auth_method, tenant_id } = request.body;
      const { account, credentials } = await clients.create({ name, tier, authMethod: auth_method, tenantId: tenant_id }, operatorActor(request));
      return reply.code(201).send(createdClientView(account, limits.effective(account), credentials));
    },
  );

  app.get(
    '/admin/v1/clients',
    {
      config: admin,
      schema: {
        tags,
        summary: 'List client accounts',
        description: 'Oldest first; `search` keeps the clients whose name contains it (ignoring the case of ASCII letters).',
        querystring: ClientsQuery,
        response: { 200: ClientsPage },
      },
    },
    uncachedByRequest(list, (request: FastifyRequest & { query: { search?: string } }) => ({ search: request.query.search })),
  );

  app.get(
    '/admin/v1/clients/:client_id',
    { config: admin, schema: { tags, summary: 'Get a client account', params: ClientParams, response: { 200: Client } } },
    async (request) => view(await clients.get(request.params.client_id)),
  );
}

/** Changes to a client: its settings, the emergency reset of its credentials, offboarding. */
function clientChangeRoutes(app: App, { clients, limits }: AdminRoutesDeps): void {
  const view = viewOf(limits);

  app.patch(
    '/admin/v1/clients/:client_id',
    {
      config: CLIENT_CHANGE,
      schema: {
        tags,
        summary: 'Change auth_method, tier, disabled, the limit overrides or the flow vocabulary',
        description:
          'Takes effect on the next request, also for access and refresh tokens already issued. `rate_limit_per_minute` and ' +
          "`daily_quota` override the tier's limits for this client; null returns to the tier's. `flow_vocabulary: odditt` gives " +
          "every flow answer Odditt's `flow_type` names, for a client written for Odditt.",
        params: ClientParams,
        body: ClientPatchBody,
        response: { 200: Client },
      },
    },
    async (request) => {
      const { auth_method, tier, disabled, rate_limit_per_minute, daily_quota, flow_vocabulary } = request.body;
      if (Object.keys(request.body).length === 0) {
        throw validationError('body', 'minProperties', 'send at least one of auth_method, tier, disabled, rate_limit_per_minute, daily_quota, flow_vocabulary');
      }
      const account = await clients.update(request.params.client_id, {
        authMethod: auth_method,
        tier,
        disabled,
        rateLimitPerMinute: rate_limit_per_minute,
        dailyQuota: daily_quota,
        flowVocabulary: flow_vocabulary,
      }, operatorActor(request));
      return view(account);
    },
  );

  app.post(
    '/admin/v1/clients/:client_id/credentials',
    {
      config: CLIENT_CHANGE,
      schema: {
        tags,
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
      const { account, credentials } = await clients.rotateCredentials(request.params.client_id, operatorActor(request));
      return reply.send(clientWithCredentialsView(account, limits.effective(account), credentials));
    },
  );

  app.delete(
    '/admin/v1/clients/:client_id',
    {
      config: CLIENT_CHANGE,
      schema: {
        tags,
        summary: 'Offboard a client',
        description:
          'Every credential and token of the client ends at once; every later call answers 401 with reason client_deleted. ' +
          'The client stays listed with deleted_at, and its usage history is kept for billing. Deleting it again changes nothing.',
        params: ClientParams,
        response: { 204: Deleted },
      },
    },
    async (request, reply) => {
      await clients.delete(request.params.client_id, operatorActor(request));
      return reply.code(204).send(null);
    },
  );
}
