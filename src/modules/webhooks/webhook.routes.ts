import type { FastifyRequest } from 'fastify';
import type { App, ModuleRoutes } from '../../platform/http/types.js';
import { uncachedByRequest } from '../../platform/lists/uncached-lists.js';
import { clientActor } from '../audit/index.js';
import { principalOf, type Tier } from '../auth/index.js';
import type { ClientPolicy } from '../policy/index.js';
import type { WebhookEndpointsService } from './webhook-endpoints.service.js';
import type { WebhookTester } from './webhook-test.js';
import {
  CreatedWebhook,
  eventTypesView,
  NewWebhookBody,
  RotatedSecret,
  Webhook,
  WebhookChangeBody,
  WebhookDeleted,
  WebhookEventTypes,
  WebhookParams,
  WebhooksPage,
  WebhooksQuery,
  WebhookTestResult,
  webhookView,
} from './webhook.schemas.js';

/** Managing endpoints is account state: the minute only, never cached, for the tiers with webhooks. */
const MANAGE: ClientPolicy = { auth: 'client', tier: 'webhooks', limit: 'account', usage: 'account', cache: 'no-store' };
const withErrors = (errors: ClientPolicy['errors']) => ({ policy: { ...MANAGE, errors } });

export interface WebhookRoutesDeps {
  endpoints: WebhookEndpointsService;
  test: WebhookTester;
  /** How many endpoints a client of the tier may keep (TIER_LIMITS' webhook_endpoints); null: no cap. */
  capOf(tier: Tier): number | null;
  clock: { now(): number };
}

const tags = ['webhooks'];
const ONE_ID = 'Another client\'s endpoint, a deleted one or none is 404.';

const clientId = (request: FastifyRequest) => principalOf(request).client.id;

/** /v1/webhooks: the calling client's webhook endpoints. */
export const webhookRoutes: ModuleRoutes<WebhookRoutesDeps> = async (app, deps) => {
  endpointRoutes(app, deps);
  actionRoutes(app, deps);
};

/** The endpoints themselves: listed, made, read, changed, deleted. */
function endpointRoutes(app: App, { endpoints, capOf, clock }: WebhookRoutesDeps): void {
  app.get(
    '/v1/webhook-event-types',
    {
      config: { policy: MANAGE },
      schema: { tags, summary: 'The kinds of webhook message', description: "Each kind of message with what it tells and the JSON Schema of its `data`.", response: { 200: WebhookEventTypes } },
    },
    async () => eventTypesView(),
  );

  app.get(
    '/v1/webhooks',
    { config: { policy: MANAGE }, schema: { tags, summary: 'Your webhook endpoints', description: 'Every endpoint not deleted, oldest first. Never their secrets.', querystring: WebhooksQuery, response: { 200: WebhooksPage } } },
    uncachedByRequest(endpoints.list, (request) => ({ clientId: clientId(request) })),
  );

  app.post(
    '/v1/webhooks',
    {
      config: withErrors(['CONFLICT']),
      schema: {
        tags,
        summary: 'Create a webhook endpoint',
        description:
          'Messages of the `event_types` named, narrowed by `filters`, are posted to `url`, signed as Standard Webhooks writes it. The signing secret ' +
          'appears in this response only. 409 past the endpoints your tier may keep (pro 5, enterprise 50 unless the deployment says otherwise).',
        body: NewWebhookBody,
        response: { 201: CreatedWebhook },
      },
    },
    async (request, reply) => {
      const { client } = principalOf(request);
      return reply.code(201).send(await endpoints.create(client.id, request.body, capOf(client.tier), clientActor(request)));
    },
  );

  app.get(
    '/v1/webhooks/:id',
    { config: withErrors(['NOT_FOUND']), schema: { tags, summary: 'One webhook endpoint', description: ONE_ID, params: WebhookParams, response: { 200: Webhook } } },
    async (request) => webhookView(await endpoints.get(clientId(request), request.params.id), clock.now()),
  );

  app.patch(
    '/v1/webhooks/:id',
    {
      config: withErrors(['NOT_FOUND']),
      schema: {
        tags,
        summary: 'Change a webhook endpoint',
        description:
          'Changes the fields given. `enabled: false` stops sending (`disabled_reason: client`); `enabled: true` resumes where sending stopped, ' +
          `every waiting message due at once with its retries counted afresh. ${ONE_ID}`,
        params: WebhookParams,
        body: WebhookChangeBody,
        response: { 200: Webhook },
      },
    },
    async (request) => endpoints.update(clientId(request), request.params.id, request.body, clientActor(request)),
  );

  app.delete(
    '/v1/webhooks/:id',
    { config: withErrors(['NOT_FOUND']), schema: { tags, summary: 'Delete a webhook endpoint', description: `Nothing more is sent to it. ${ONE_ID}`, params: WebhookParams, response: { 204: WebhookDeleted } } },
    async (request, reply) => {
      await endpoints.remove(clientId(request), request.params.id, clientActor(request));
      return reply.code(204).send(null);
    },
  );

}

/** What is done with an endpoint: its secret rotated, a test message sent. */
function actionRoutes(app: App, { endpoints, test }: WebhookRoutesDeps): void {
  app.post(
    '/v1/webhooks/:id/rotate-secret',
    {
      config: withErrors(['NOT_FOUND']),
      schema: {
        tags,
        summary: "Rotate a webhook endpoint's secret",
        description:
          'A new signing secret, in this response only. The one it replaces keeps signing beside it for 24 hours (each message then carries ' +
          `two signatures), so the receiver can be given the new one without missing a message. ${ONE_ID}`,
        params: WebhookParams,
        response: { 200: RotatedSecret },
      },
    },
    async (request) => endpoints.rotateSecret(clientId(request), request.params.id, clientActor(request)),
  );

  app.post(
    '/v1/webhooks/:id/test',
    {
      config: withErrors(['NOT_FOUND']),
      schema: {
        tags,
        summary: 'Send a test message',
        description:
          'Posts one signed `webhook.test` message to the endpoint now (enabled or not) and answers what came back; 200 whatever the endpoint ' +
          `answered (see \`success\`). It is never retried. ${ONE_ID}`,
        params: WebhookParams,
        response: { 200: WebhookTestResult },
      },
    },
    async (request) => test(clientId(request), request.params.id),
  );
}
