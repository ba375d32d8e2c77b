import type { ErrorCode } from '../../platform/errors.js';
import type { CachePolicy } from '../../platform/http/headers.js';
import type { Entitlement } from './tiers.js';
import type { UsageGroup } from './usage-groups.js';

/** An OpenAPI security requirement list: scheme names, each with its (empty) scopes. */
export type Security = ReadonlyArray<Readonly<Record<string, readonly string[]>>>;

/**
 * A client call: authenticated by X-API-Key or Bearer token, then checked against the client's
 * tier, charged against its limits, counted in its usage group.
 */
export interface ClientPolicy {
  readonly auth: 'client';
  /** What of the tier table the route serves (its tier rule): a client whose tier lacks it gets 403. */
  readonly tier: Entitlement;
  /**
   * Body fields for some tiers only (a rule on the field): a client whose tier lacks the field's
   * entitlement and sends it gets 403 naming the field; the document marks the field with
   * `x-required-tiers`. Decision 0317.
   */
  readonly fields?: Readonly<Record<string, Entitlement>>;
  /** `data`: charged against the minute and the day; `account`: the minute only, never the daily quota. */
  readonly limit: 'data' | 'account';
  /** Where a charged call is counted. */
  readonly usage: UsageGroup;
  /** `data`: the client's own cache may keep a success; `no-store`: no cache may (account state). */
  readonly cache: 'data' | 'no-store';
  /** The errors the route itself answers (404, 409…), beside those of its input and of this policy. */
  readonly errors?: readonly ErrorCode[];
}

/** The operator's API: `Authorization: Bearer $ADMIN_TOKEN`; without ADMIN_TOKEN it does not exist (404). */
export interface AdminPolicy {
  readonly auth: 'admin';
  readonly cache: 'no-store';
  readonly errors?: readonly ErrorCode[];
}

/** Anyone: operations, documents, and the endpoints whose handler checks the credentials itself. */
export interface PublicPolicy {
  readonly auth: 'none';
  readonly cache: CachePolicy;
  /**
   * The credentials the handler itself reads (a login, the OAuth endpoints), for the document;
   * absent: the operation names none.
   */
  readonly security?: Security;
  readonly errors?: readonly ErrorCode[];
}

/**
 * The web pages' own routes (the client portal's and the operator console's), called with an
 * opaque session cookie of their `realm`: the session is found (else 401) and, when `csrf`, the
 * request must carry the session's CSRF token in X-CSRF-Token (else 403), since a browser sends
 * the cookie whoever made the page that posts. The session holds the client's tokens (or the
 * admin token) server-side; what the route does with them is a call of the API's own routes, which
 * then apply their own policy. Decision 0222.
 */
export interface SessionPolicy {
  readonly auth: 'session';
  readonly realm: SessionRealm;
  readonly cache: 'no-store';
  readonly csrf: boolean;
  readonly errors?: readonly ErrorCode[];
}

/**
 * What a route declares about who may call it and what happens before its handler, as data on the
 * route (`config.policy`): one plugin (policy.plugin.ts) turns it into hooks and into the route's
 * security, error responses and headers in the OpenAPI document. Decision 0180.
 */
/** Whose sessions: the client portal's or the operator console's. */
export type SessionRealm = 'portal' | 'console';

export type RoutePolicy = ClientPolicy | AdminPolicy | PublicPolicy | SessionPolicy;

/** Either credential the flow matrix allows. */
export const CLIENT_SECURITY: Security = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
export const ADMIN_SECURITY: Security = [{ AdminToken: [] }];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route and what runs before its handler (modules/policy): every route has one. */
    policy: RoutePolicy;
  }
  interface FastifySchema {
    /** The tiers a client route is for, when not every tier (the operation then lists 403). */
    'x-required-tiers'?: readonly string[];
  }
}
