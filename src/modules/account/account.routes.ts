import type { Clock } from '../../platform/clock.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { principalOf } from '../auth/index.js';
import type { CredentialsService } from '../clients/index.js';
import { ACCOUNT_POLICY } from './account.policy.js';
import { AccountConfig } from './account.schemas.js';
import { credentialsRoutes } from './credentials.routes.js';

/** The calling client's own account: its configuration, its API keys and client secrets. */
export const accountRoutes: ModuleRoutes<{ credentials: CredentialsService; clock: Clock }> = async (app, deps) => {
  app.get(
    '/v1/account/config',
    {
      config: { policy: ACCOUNT_POLICY },
      schema: {
        tags: ['account'],
        summary: "The calling client's account configuration",
        response: { 200: AccountConfig },
      },
    },
    // A plain function: the answer is sent without a promise (decision 0147).
    (request) => {
      const { client } = principalOf(request);
      return { client_id: client.id, tenant_id: client.tenantId, name: client.name, tier: client.tier, auth_method: client.authMethod, flow_vocabulary: client.flowVocabulary };
    },
  );

  credentialsRoutes(app, deps);
};
