import { CLIENT_SECURITY } from '../../platform/http/openapi.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { AccountConfig } from './account.schemas.js';

/** The calling client's own account configuration. */
export const accountRoutes: ModuleRoutes = async (app) => {
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
    async (request) => {
      // The current account, read on this request: an operator's change shows at once.
      const { client } = request.principal;
      return { client_id: client.id, tenant_id: client.tenantId, name: client.name, tier: client.tier, auth_method: client.authMethod };
    },
  );
};
