import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/types.js';
import type { MaybePromise } from '../../platform/maybe-promise.js';
import type { Authenticator, Principal } from './authenticator.js';
import type { CredentialFailures } from './credential-failures.js';

export interface AuthenticationOptions {
  /** Counts refused X-API-Keys per source address (brute force); a key that verifies is served whatever the count. */
  failures?: CredentialFailures;
}

/** Fastify's callback for a hook: nothing, or the error to answer. */
export type HookDone = (error?: Error) => void;

/** An onRequest hook in callback style: no promise is allocated when it decides at once. */
export type CallbackHook = (request: FastifyRequest, reply: FastifyReply, done: HookDone) => void;

/**
 * Gives every request a `principal` (null until a client is authenticated) and returns the
 * authentication step of a client route: X-API-Key or Bearer, as the flow matrix allows, else
 * 401; on success `request.principal` is set. The route policies (modules/policy) attach it to
 * the routes that take client credentials. Registered at the root of the app.
 */
export function registerAuthentication(app: App, authenticator: Authenticator, options: AuthenticationOptions = {}): CallbackHook {
  const { failures } = options;
  app.decorateRequest('principal', null);
  // A callback hook: a call whose account the client directory holds is authenticated without a
  // promise (decision 0142).
  return (request, _reply, done) => {
    const byApiKey = failures !== undefined && request.headers['x-api-key'] !== undefined;
    const refuse = (error: unknown) => {
      if (!byApiKey) return done(error as Error);
      failures.refusedApiKey(request.ip, error).then((answer) => done(answer as Error), done);
    };
    const admitted = (principal: Principal) => {
      request.principal = principal;
      done();
    };
    let found: MaybePromise<Principal>;
    try {
      found = authenticator.authenticate(request.headers);
    } catch (error) {
      return refuse(error);
    }
    if (found instanceof Promise) found.then(admitted, refuse);
    else admitted(found);
  };
}

/**
 * Who is calling, on a route whose policy authenticates clients. Anywhere else there is nobody:
 * a handler that asks there is a route declared with the wrong policy, a bug, not a 401.
 */
export function principalOf(request: FastifyRequest): Principal {
  const { principal } = request;
  if (principal === null) throw new Error('this route reads the caller, but its policy does not authenticate clients');
  return principal;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated client: set by the authentication step of a client route, null elsewhere. */
    principal: Principal | null;
  }
}
