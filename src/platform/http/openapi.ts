import swagger from '@fastify/swagger';
import { Type } from 'typebox';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { finishDocument } from './openapi-transform.js';
import type { App } from './types.js';

/** The tags every route picks from; the docs page groups operations by them, in this order. */
export const TAGS = [
  {
    name: 'authentication',
    description:
      'Log in with an API key or OAuth 2.0 client credentials, and rotate refresh tokens. Standard OAuth 2.0 clients use the token ' +
      'endpoint (RFC 6749), revocation (RFC 7009) and the metadata (RFC 8414) instead, which answer errors in RFC 6749’s format.',
  },
  {
    name: 'account',
    description:
      "The calling client's own account: its configuration, its usage, its API keys and its client secrets (up to 10 active of each; " +
      'create the new one, then delete the old, and nothing stops working in between).',
  },
  {
    name: 'references',
    description: 'Sports, countries, leagues, teams, players, operators, betting markets with their categories and positions, event periods, and the odds formats.',
  },
  {
    name: 'events',
    description: 'Upcoming events, by day in a time zone; competitions of N participants (tournaments, races, futures over a season) and their participants with their finishing results.',
  },
  { name: 'odds', description: 'Odds of upcoming events, by operator and betting market, and their price history. page_size at most 100.' },
  {
    name: 'historical',
    description: 'Events that have started, with their scores; the price history of an event or a league as a file (CSV, JSON, NDJSON). Files are for pro and enterprise.',
  },
  {
    name: 'results',
    description: 'Scores by period and players\' statistics of events that ended, every odds row graded (won, lost, push, void, half won or lost) with its closing price, and the closing-line value of prices taken. Pro and enterprise.',
  },
  {
    name: 'signals',
    description: 'The server\'s own detector\'s record of value bets, arbitrages, middles, steam moves and drops, each graded with its selections and set against the close, listed and summed up. Enterprise.',
  },
  { name: 'streams', description: 'Live odds changes as Server-Sent Events. Pro and enterprise.' },
  {
    name: 'webhooks',
    description: 'Your endpoints that changes are posted to, signed as Standard Webhooks writes it: their URLs, subscriptions, filters and secrets. Pro and enterprise.',
  },
  {
    name: 'trends',
    // No page_size here: the flow lists take 25 a page, the leagues with flows 100 (the introduction says which).
    description: 'Betting trends ("flows"), singles and same-event parlays; flows by id, the leagues with flows, and the games behind a fact flow.',
  },
  { name: 'admin', description: 'Operator API: client accounts and data import. `Authorization: Bearer $ADMIN_TOKEN`; absent (404) unless ADMIN_TOKEN is set.' },
  { name: 'operations', description: 'Health, readiness and metrics for load balancers and monitoring. No authentication.' },
];

/** The body of every error response (docs/api.md#errors); `reasons`: the closed list of 401 reasons. */
export const errorSchema = (reasons: readonly string[]) =>
  Type.Object(
    {
      error: Type.Object(
        {
          code: Type.Enum(Object.keys(ERROR_STATUS) as ErrorCode[], { description: 'Machine-readable error code; the HTTP status follows from it.' }),
          message: Type.String({ description: 'Human-readable explanation. Never contains credentials or internals.' }),
          request_id: Type.String({ description: 'Also in the X-Request-Id header; quote it when reporting a problem.' }),
          reason: Type.Optional(Type.Enum([...reasons], { description: 'On 401 only: why the credentials were refused.' })),
          details: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  field: Type.String({ description: 'The offending field, e.g. `page_size` or `teams[3].league_id`.' }),
                  rule: Type.String({ description: 'The broken rule, e.g. `maximum`, `required`, `type`.' }),
                },
                { additionalProperties: false },
              ),
              { description: 'On 400 and 422: every field that broke a rule.' },
            ),
          ),
        },
        { additionalProperties: false, description: 'What went wrong.' },
      ),
    },
    { additionalProperties: false, title: 'Error' },
  );

export interface OpenApiOptions {
  /**
   * Whether the admin API exists (ADMIN_TOKEN is set). Without it every admin route answers 404
   * (decision 0009), and the document does not show it either: no path, scheme or tag would tell a
   * reader of /docs of an API that is not there.
   */
  admin: boolean;
  /** The closed list of 401 reasons, which the authentication module owns. */
  unauthorizedReasons: readonly string[];
  /** The requests this service makes to clients' endpoints (OpenAPI 3.1 `webhooks`), which the webhooks module owns. */
  webhooks?: Record<string, unknown>;
}

/**
 * The OpenAPI 3.1 document, built from the same TypeBox schemas that validate requests and
 * serialize responses. Registered before any route so that every route is in it. The error
 * responses are added to the document only (transformObject): the routes' own `response`
 * config stays 2xx-only, so Fastify's serialization of errors is unaffected.
 */
export async function registerOpenApi(app: App, { admin, unauthorizedReasons, webhooks }: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sports Data B2B API',
        version: '1.0.0',
        description:
          'Sports reference data, events, odds and betting trends ("flows") for business clients. ' +
          'Authenticate with an API key (X-API-Key) or OAuth 2.0 client credentials, optionally exchanged for a JWT token pair.\n\n' +
          'List endpoints answer `{results, total_count, page, page_size, total_pages}`: `page` starts at 1 (default 1), ' +
          '`page_size` defaults to 20; its maximum is 25 on the two flow lists (`/v1/trends/flows` and `/v1/trends/mixed-flows`) ' +
          'and 100 on every other list. Page until `page >= total_pages`. ' +
          'GET endpoints take paging in the query string, POST endpoints in the JSON body.\n\n' +
          'Every error is `{"error":{"code","message","request_id"}}`, with `details` on validation errors and `reason` on 401.',
      },
      servers: [{ url: '/', description: 'The deployment serving this document' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key issued at onboarding (`sdk_…`). Allowed when auth_method is api_key or both.' },
          BearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'An access token from a login or refresh endpoint. Allowed for every auth_method.',
          },
          AdminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the deployment.' },
          ClientSecretBasic: {
            type: 'http',
            scheme: 'basic',
            description: 'OAuth 2.0 client_secret_basic (RFC 6749 §2.3.1): the client id and secret, each form-urlencoded, as user and password.',
          },
        },
        schemas: { Error: errorSchema(unauthorizedReasons) },
      },
      ...(webhooks === undefined ? {} : { webhooks }),
    },
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      return finishDocument(admin ? document.openapiObject : withoutAdminApi(document.openapiObject));
    },
  });
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The document without the operations that take the AdminToken, and without the scheme and the
 * tags only they used: what a deployment without ADMIN_TOKEN serves.
 */
function withoutAdminApi<T extends object>(document: T): T {
  const { paths, components, tags } = document as { paths?: unknown; components?: unknown; tags?: unknown };
  const usedTags = new Set<unknown>();
  for (const [path, item] of Object.entries(isRecord(paths) ? paths : {})) {
    if (!isRecord(item) || !isRecord(paths)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      if (takesAdminToken(operation)) delete item[method];
      else for (const tag of Array.isArray(operation.tags) ? operation.tags : []) usedTags.add(tag);
    }
    if (!HTTP_METHODS.some((method) => method in item)) delete paths[path];
  }
  if (isRecord(components) && isRecord(components.securitySchemes)) delete components.securitySchemes.AdminToken;
  if (Array.isArray(tags)) Object.assign(document, { tags: tags.filter((tag) => isRecord(tag) && usedTags.has(tag.name)) });
  return document;
}

function takesAdminToken(operation: Record<string, unknown>): boolean {
  return Array.isArray(operation.security) && operation.security.some((requirement) => isRecord(requirement) && 'AdminToken' in requirement);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
