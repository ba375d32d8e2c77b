import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/types.js';
import type { Authenticator, Principal } from './authenticator.js';
import type { CredentialFailures } from './credential-failures.js';

/**
 * What runs once a client call is authenticated and before anything else of it: the rate
 * limiter, which charges the call and may refuse it (429). Undefined when it decided without
 * waiting, so that the in-process store costs no promise.
 */
export type Admission = (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined;

export interface AuthenticationOptions {
  admit?: Admission;
  /** Counts refused X-API-Keys per source address (brute force). */
  failures?: CredentialFailures;
}

/**
 * Makes `app.authenticate` (the onRequest hook of every client route) and
 * `request.principal` available to every feature. Registered at the root of the app, before
 * the features, by the composition root.
 */
export function registerAuthentication(app: App, authenticator: Authenticator, options: AuthenticationOptions = {}): void {
  const { admit, failures } = options;
  app.decorateRequest('principal', null as never);
  app.decorate('authenticate', async (request, reply) => {
    const byApiKey = failures !== undefined && request.headers['x-api-key'] !== undefined;
    if (byApiKey) failures.rejectBlocked(request.ip);
    try {
      request.principal = await authenticator.authenticate(request.headers);
    } catch (error) {
      throw byApiKey ? await failures.refusedApiKey(request.ip, error) : error;
    }
    // Charged before the handler runs: concurrent requests can never overshoot a limit.
    const pending = admit?.(request, reply);
    if (pending !== undefined) await pending;
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticate` hook on every client route. */
    principal: Principal;
  }
}
