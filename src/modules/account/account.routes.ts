import type { Clock } from '../../platform/clock.js';
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
    // The account's own state, unlike data: no cache may keep it (an operator's change shows at
    // once); the onSend hook of credentialsRoutes, below in this scope, marks it no-store. A plain
    // function: the answer is sent without a promise (decision 0147).
    (request) => {
      const { client } = request.principal;
      return { client_id: client.id, tenant_id: client.tenantId, name: client.name, tier: client.tier, auth_method: client.authMethod };
    },
  );

  credentialsRoutes(app, deps);
};
