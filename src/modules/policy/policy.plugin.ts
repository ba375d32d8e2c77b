import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestHookHandler, RouteOptions } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { ApiError } from '../../platform/errors.js';
import { cacheHeaders } from '../../platform/http/headers.js';
import { OPERATION_ANSWERS, type OperationAnswers } from '../../platform/http/openapi-transform.js';
import { hooksOf } from '../../platform/http/route-hooks.js';
import type { App } from '../../platform/http/types.js';
import { adminGuard, type Authenticator, type CallbackHook, type CredentialFailures, principalOf, registerAuthentication, TIERS } from '../auth/index.js';
import { ADMIN_SECURITY, CLIENT_SECURITY, type ClientPolicy, type RoutePolicy, type SessionRealm } from './route-policy.js';
import { ENTITLEMENTS, type Entitlement, tiersWith } from './tiers.js';
import { USAGE_GROUP_NAMES } from './usage-groups.js';

/**
 * Charges a client call against its limits before anything else of it runs: sets the rate-limit
 * headers, or throws 429. Undefined when it decided at once (the in-process store: no promise).
 */
export type Admission = (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined;

export interface RoutePoliciesDeps {
  authenticator: Authenticator;
  /** Counts refused X-API-Keys per source address (brute force). */
  failures?: CredentialFailures;
  adminToken: string | undefined;
  /** The rate limiter (modules/limits): one admission per kind of limit. */
  limiter: { admission(limit: ClientPolicy['limit']): Admission };
  /** The usage meter (modules/usage): one charged call of a client, in a group (its index in USAGE_GROUP_NAMES). */
  meter: { count(clientId: string, group: number, now: number): void };
  clock: Clock;
  /** The portal's and the console's sessions: the step a session route runs (found, and the CSRF token when asked). */
  sessions?: Record<SessionRealm, { admit(csrf: boolean): CallbackHook }>;
}

/**
 * Reads each route's policy (`config.policy`) as the route is added, and attaches the hooks it
 * needs, always in this order (decision 0181):
 *
 *   onRequest: 1. authenticate (client credentials, or the admin token)
 *              2. tier: 403 when the client's tier lacks what the route serves (only on such routes)
 *              3. limit: charge the call against the minute (and the day), else 429
 *              4. meter: count the charged call in the route's usage group
 *   onSend:    5. cache headers: Cache-Control (and Pragma) as the policy says
 *
 * A route that needs none of 1–4 gets none. The route's schema gets the security, the tiers and
 * the error responses the policy implies, for the OpenAPI document. A route without a policy
 * stops the start-up with one line naming it. Registered at the root, before any route.
 */
export function registerRoutePolicies(app: App, deps: RoutePoliciesDeps): void {
  const authenticate = registerAuthentication(app, deps.authenticator, { failures: deps.failures });
  const admin = adminGuard(deps.adminToken, deps.failures);
  // Each step made once and shared by every route of its kind: nothing is looked up per request.
  const limits = { data: limitStep(deps.limiter.admission('data')), account: limitStep(deps.limiter.admission('account')) };
  const meters = USAGE_GROUP_NAMES.map((_group, index) => meterStep(deps.meter, index, deps.clock));
  const tierChecks = new Map<Entitlement, CallbackHook>();
  const tierCheck = (entitlement: Entitlement) => {
    let check = tierChecks.get(entitlement);
    if (check === undefined) {
      check = tierStep(entitlement);
      tierChecks.set(entitlement, check);
    }
    return check;
  };

  function stepsOf(policy: RoutePolicy): onRequestHookHandler[] {
    switch (policy.auth) {
      case 'none':
        return [];
      case 'admin':
        return [admin];
      case 'session':
        if (deps.sessions === undefined) throw new Error('a session route needs the web sessions (RoutePoliciesDeps.sessions)');
        return [deps.sessions[policy.realm].admit(policy.csrf)];
      case 'client': {
        const steps: onRequestHookHandler[] = [authenticate];
        if (gated(policy.tier)) steps.push(tierCheck(policy.tier));
        steps.push(limits[policy.limit]);
        const meter = meters[USAGE_GROUP_NAMES.indexOf(policy.usage)];
        if (meter === undefined) throw new Error(`no usage group "${policy.usage}" (groups: ${USAGE_GROUP_NAMES.join(', ')})`);
        steps.push(meter);
        return steps;
      }
    }
  }

  app.addHook('onRoute', function attachPolicy(this: FastifyInstance, route: RouteOptions) {
    const policy = route.config?.policy ?? pluginRoutePolicyOf(this);
    if (policy === undefined) {
      throw new Error(`${methodsOf(route)} ${route.url} has no policy: declare config.policy (who may call it; docs/architecture.md#route-policies)`);
    }
    const schema = route.schema as FastifySchema | undefined;
    if (schema?.security !== undefined || schema?.['x-required-tiers'] !== undefined) {
      throw new Error(`${methodsOf(route)} ${route.url} names its security or tiers in its schema: its policy decides them`);
    }
    const steps = stepsOf(policy);
    if (steps.length > 0) route.onRequest = [...hooksOf(route.onRequest), ...steps];
    const fields = policy.auth === 'client' ? gatedFields(policy) : [];
    // The body is read only after the request's own steps: a field's tier is checked once it is parsed and valid.
    if (fields.length > 0) route.preHandler = [...hooksOf(route.preHandler), fieldsStep(fields)];
    route.onSend = [...hooksOf(route.onSend), cacheHeaders(policy.cache)];
    if (schema !== undefined && schema.hide !== true) route.schema = { ...schema, ...documentOf(policy), ...markedFields(schema, fields) };
  });
}

/** A route for some tiers only: checked (403) before it is charged. */
const gated = (entitlement: Entitlement) => tiersWith(entitlement).length < TIERS.length;

function tierStep(entitlement: Entitlement): CallbackHook {
  const allowed = tiersWith(entitlement);
  const names = tierNames(allowed);
  const what = ENTITLEMENTS[entitlement].refused;
  return (request, _reply, done) => {
    const { tier } = principalOf(request).client;
    if (allowed.includes(tier)) return done();
    done(new ApiError('FORBIDDEN', `${what} is for ${names}; this client is on the ${tier} tier`));
  };
}

/** A body field for some tiers only, as the policy names it, with those tiers. */
interface GatedField {
  field: string;
  entitlement: Entitlement;
  tiers: readonly string[];
}

function gatedFields(policy: ClientPolicy): GatedField[] {
  return Object.entries(policy.fields ?? {}).flatMap(([field, entitlement]) => (gated(entitlement) ? [{ field, entitlement, tiers: tiersWith(entitlement) }] : []));
}

function tierNames(allowed: readonly string[]): string {
  return allowed.length === 1 ? `the ${allowed[0]} tier` : `the ${allowed.slice(0, -1).join(', ')} and ${allowed.at(-1)} tiers`;
}

/** 403 naming the first field sent that the client's tier lacks. */
function fieldsStep(fields: readonly GatedField[]): CallbackHook {
  return (request, _reply, done) => {
    const body = request.body as Record<string, unknown> | undefined;
    const { tier } = principalOf(request).client;
    const refused = fields.find(({ field, tiers }) => body?.[field] !== undefined && !tiers.includes(tier));
    if (refused === undefined) return done();
    done(new ApiError('FORBIDDEN', `${refused.field} is for ${tierNames(refused.tiers)}; this client is on the ${tier} tier`));
  };
}

/** The body schema with each gated field marked `x-required-tiers`, for the document (the field's rule). */
function markedFields(schema: FastifySchema, fields: readonly GatedField[]): FastifySchema {
  const body = schema.body as { properties?: Record<string, object> } | undefined;
  if (fields.length === 0 || body?.properties === undefined) return {};
  const properties = { ...body.properties };
  for (const { field, tiers } of fields) {
    const property = properties[field];
    if (property === undefined) throw new Error(`the policy names the body field "${field}", which the body does not have`);
    properties[field] = { ...property, 'x-required-tiers': tiers };
  }
  return { body: { ...body, properties } };
}

function limitStep(admit: Admission): CallbackHook {
  return (request, reply, done) => {
    let pending: Promise<void> | undefined;
    try {
      pending = admit(request, reply);
    } catch (error) {
      return done(error as Error);
    }
    if (pending === undefined) return done();
    pending.then(() => done(), done);
  };
}

function meterStep(meter: RoutePoliciesDeps['meter'], group: number, clock: Clock): CallbackHook {
  return (request, _reply, done) => {
    meter.count(principalOf(request).client.id, group, clock.now());
    done();
  };
}

/** What the document says of an operation because of its policy. */
function documentOf(policy: RoutePolicy): FastifySchema {
  const declared = policy.errors ?? [];
  switch (policy.auth) {
    case 'session':
    case 'none': {
      const answers: OperationAnswers = { errors: declared, rateLimitHeaders: false, entityTags: false };
      return { ...(policy.auth === 'none' && policy.security !== undefined ? { security: policy.security } : {}), [OPERATION_ANSWERS]: answers };
    }
    case 'admin':
      // Without ADMIN_TOKEN every admin route answers 404: the admin API does not exist. Wrong
      // tokens from one address past LOGIN_FAILURES_PER_MINUTE are 429.
      return {
        security: ADMIN_SECURITY,
        [OPERATION_ANSWERS]: { errors: ['UNAUTHORIZED', 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED', ...declared], rateLimitHeaders: false, entityTags: false },
      };
    case 'client': {
      const forbidden = gated(policy.tier) || gatedFields(policy).length > 0;
      const answers: OperationAnswers = {
        errors: ['UNAUTHORIZED', ...(forbidden ? (['FORBIDDEN'] as const) : []), 'RATE_LIMIT_EXCEEDED', ...declared],
        rateLimitHeaders: true,
        // Data pages carry an ETag; account listings are no-store answers read afresh each time.
        entityTags: policy.cache === 'data',
      };
      return { security: CLIENT_SECURITY, ...(gated(policy.tier) ? { 'x-required-tiers': tiersWith(policy.tier) } : {}), [OPERATION_ANSWERS]: answers };
    }
  }
}

/**
 * Routes that a third-party plugin adds (the docs page's, by @fastify/swagger-ui) cannot carry a
 * config of ours: the scope that registers the plugin declares their policy, once, here.
 */
const pluginRoutePolicies = new WeakMap<object, RoutePolicy>();

export function declarePluginRoutesPolicy(scope: FastifyInstance, policy: RoutePolicy): void {
  pluginRoutePolicies.set(scope, policy);
}

/** The policy the scope of a route, or a scope around it, declared for plugin routes. */
function pluginRoutePolicyOf(scope: FastifyInstance): RoutePolicy | undefined {
  // A plugin's routes are added in scopes made from the declaring one (encapsulation is by prototype).
  for (let at: unknown = scope; isObject(at); at = Object.getPrototypeOf(at)) {
    const policy = pluginRoutePolicies.get(at);
    if (policy !== undefined) return policy;
  }
  return undefined;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function methodsOf(route: RouteOptions): string {
  return (Array.isArray(route.method) ? route.method : [route.method]).join(',');
}
