import type { Clock } from '../../platform/clock.js';
import { NO_STORE } from '../../platform/http/headers.js';
import { CLIENT_SECURITY } from '../../platform/http/openapi.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import type { CredentialsService } from '../clients/index.js';
import { AccountConfig } from './account.schemas.js';
import { credentialsRoutes } from './credentials.routes.js';

/** The calling client's own account: its configuration, its API keys and client secrets. */
export const accountRoutes: ModuleRoutes<{ credentials: CredentialsService; clock: Clock }> = async (app, deps) => {
  app.get(
    '/v1/account/config',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['account'],
        summary: "The calling client's account configuration",
        security: CLIENT_SECURITY,
        response: { 200: AccountConfig },
      },
    },
    async (request, reply) => {
      // The account's own state, unlike data: no cache may keep it (an operator's change shows at once).
      reply.header('cache-control', NO_STORE);
      const { client } = request.principal;
      return { client_id: client.id, tenant_id: client.tenantId, name: client.name, tier: client.tier, auth_method: client.authMethod };
    },
  );

  credentialsRoutes(app, deps);
};
