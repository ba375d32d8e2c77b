import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/types.js';
import type { MaybePromise } from '../../platform/maybe-promise.js';
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
  /** Counts refused X-API-Keys per source address (brute force); a key that verifies is served whatever the count. */
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
  // A callback hook: a call whose account the client directory holds is authenticated and
  // charged without a promise (decision 0142).
  app.decorate('authenticate', (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    const byApiKey = failures !== undefined && request.headers['x-api-key'] !== undefined;
    const refuse = (error: unknown) => {
      if (!byApiKey) return done(error as Error);
      failures.refusedApiKey(request.ip, error).then((answer) => done(answer as Error), done);
    };
    const admitted = (principal: Principal) => {
      request.principal = principal;
      // Charged before the handler runs: concurrent requests can never overshoot a limit.
      let pending: Promise<void> | undefined;
      try {
        pending = admit?.(request, reply);
      } catch (error) {
        return done(error as Error);
      }
      if (pending === undefined) return done();
      pending.then(() => done(), done);
    };
    let found: MaybePromise<Principal>;
    try {
      found = authenticator.authenticate(request.headers);
    } catch (error) {
      return refuse(error);
    }
    if (found instanceof Promise) found.then(admitted, refuse);
    else admitted(found);
  });
}

/** Fastify's callback for a hook: nothing, or the error to answer. */
type HookDone = (error?: Error) => void;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticate` hook on every client route. */
    principal: Principal;
  }
}
