import { Type } from 'typebox';
import { AUTH_METHODS, FLOW_VOCABULARIES, TIERS } from '../auth/index.js';

/** GET /v1/account/config: the account as it is now (not as the access token saw it). */
export const AccountConfig = Type.Object(
  {
    client_id: Type.String({ format: 'uuid', description: 'Client identifier.' }),
    tenant_id: Type.String({ format: 'uuid', description: 'Tenant that owns this client account.' }),
    name: Type.String({ description: 'Account name given at onboarding.' }),
    tier: Type.Enum(TIERS, { description: 'Account tier.' }),
    auth_method: Type.Enum(AUTH_METHODS, {
      description: 'Which flows the account may use: api_key, oauth or both.',
    }),
    flow_vocabulary: Type.Enum(FLOW_VOCABULARIES, {
      description: "The names its flow answers give `flow_type` in: `ours` (fact, fun, plain) or `odditt` (Odditt's, set by an operator for a client migrating from Odditt).",
    }),
  },
  { title: 'AccountConfig', additionalProperties: false },
);
