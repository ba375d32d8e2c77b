import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/index.js';

/**
 * Who made a change. An operator is one, whoever holds the ADMIN_TOKEN or runs the CLI on the
 * host; a client is named with what it called with: the API key (its code), or the access token
 * (its id) and the credential that token's session was started from.
 */
export type AuditActor =
  | { type: 'operator'; via: 'admin_api' | 'cli'; address: string | null }
  | { type: 'service'; via: 'webhooks'; address: null }
  | {
      type: 'client';
      via: 'api_key' | 'bearer';
      clientId: string;
      credentialCode: string | null;
      tokenId: string | null;
      address: string | null;
    };

/**
 * A change made in this process without a request: the CLI, the demo client of a first start.
 * Whoever can call the services directly can read the database, so it is an operator's change.
 */
export const LOCAL_OPERATOR: AuditActor = { type: 'operator', via: 'cli', address: null };

/** The service itself, acting on its own rules: the webhook dispatcher disabling an endpoint that is gone or never answered. */
export const WEBHOOKS_SERVICE: AuditActor = { type: 'service', via: 'webhooks', address: null };

/** The operator behind an admin API request (the route's policy has checked the ADMIN_TOKEN). */
export function operatorActor(request: FastifyRequest): AuditActor {
  return { type: 'operator', via: 'admin_api', address: request.ip };
}

/**
 * The client behind a request its route's policy authenticated. With both headers the call is
 * the token's (the key only had to belong to the same client), so the token is named.
 */
export function clientActor(request: FastifyRequest): AuditActor {
  const principal = principalOf(request);
  const base = { type: 'client', clientId: principal.client.id, address: request.ip } as const;
  if (principal.via === 'bearer') {
    return { ...base, via: 'bearer', credentialCode: principal.claims?.cred ?? null, tokenId: principal.claims?.jti ?? null };
  }
  return { ...base, via: 'api_key', credentialCode: principal.apiKey?.code ?? null, tokenId: null };
}
