import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientsService } from '../clients/index.js';

export interface DemoCredentials {
  client_id: string;
  tenant_id: string;
  name: string;
  tier: string;
  auth_method: string;
  api_key: string;
  client_secret: string;
}

/**
 * On the first start of an empty database, creates one demo client (auth_method both, tier
 * pro) and writes its credentials to DATA_DIR/demo-credentials.json, mode 0600. They are never
 * logged. Returns the file's path when it created the client.
 */
export async function ensureDemoClient(deps: { clients: ClientsService; dataDir: string }): Promise<string | undefined> {
  const { clients, dataDir } = deps;
  // createFirst, not create: another node starting at once on the same database may be here too.
  const created = await clients.createFirst({ name: 'Demo client', tier: 'pro', authMethod: 'both' });
  if (created === undefined) return undefined;
  const { account, credentials } = created;
  const file = join(dataDir, 'demo-credentials.json');
  const demo: DemoCredentials = {
    client_id: account.id,
    tenant_id: account.tenantId,
    name: account.name,
    tier: account.tier,
    auth_method: account.authMethod,
    api_key: credentials.apiKey,
    client_secret: credentials.clientSecret,
  };
  mkdirSync(dataDir, { recursive: true });
  if (existsSync(file)) writeFileSync(file, '', { mode: 0o600 });
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return file;
}
