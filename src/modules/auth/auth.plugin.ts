import type { App } from '../../platform/http/types.js';
import type { Authenticator, Principal } from './authenticator.js';

/**
 * Makes `app.authenticate` (the onRequest hook of every client route) and
 * `request.principal` available to every feature. Registered at the root of the app, before
 * the features, by the composition root.
 */
export function registerAuthentication(app: App, authenticator: Authenticator): void {
  app.decorateRequest('principal', null as never);
  app.decorate('authenticate', async (request) => {
    request.principal = await authenticator.authenticate(request.headers);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticate` hook on every client route. */
    principal: Principal;
  }
}
