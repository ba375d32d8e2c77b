import type { AuthMethod, Tier } from '../../src/modules/auth/index.js';
import type { TestApp } from './app.js';

export interface OnboardedClient {
  clientId: string;
  tenantId: string;
  apiKey: string;
  clientSecret: string;
}

/** Onboards a client through the same service the admin API and the CLI use. */
export async function onboardClient(
  t: TestApp,
  options: { authMethod?: AuthMethod; tier?: Tier; name?: string } = {},
): Promise<OnboardedClient> {
  const { account, credentials } = await t.ctx.clients.create({
    name: options.name ?? 'Acme',
    tier: options.tier ?? 'pro',
    authMethod: options.authMethod ?? 'both',
  });
  return { clientId: account.id, tenantId: account.tenantId, apiKey: credentials.apiKey, clientSecret: credentials.clientSecret };
}
