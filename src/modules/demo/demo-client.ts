import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { databaseLabel, databaseName } from '../../platform/db/connect.js';
import type { ClientsService } from '../clients/index.js';

export interface DemoCredentials {
  /** The database the client lives in: `sqlite:PATH`, or `postgres://host:port/name` (no password). */
  database: string;
  client_id: string;
  tenant_id: string;
  name: string;
  tier: string;
  auth_method: string;
  api_key: string;
  client_secret: string;
}

/** The name of the default SQLite database file, `sportsdata.db`, without its extension. */
const DEFAULT_DATABASE = 'sportsdata';

/**
 * Where the demo client of a database is written: `demo-credentials.json` for the default
 * SQLite database (`sqlite:./data/sportsdata.db`, the quick start's), else
 * `demo-credentials-<database>.json`, named after the SQLite file or the PostgreSQL database,
 * so that starting on another database never overwrites the credentials of the first
 * (docs/decisions/0084).
 */
export function demoCredentialsFile(dataDir: string, databaseUrl: string): string {
  const name = databaseName(databaseUrl).replace(/[^A-Za-z0-9._-]/g, '_');
  const sqlite = databaseUrl.startsWith('sqlite:');
  return join(dataDir, sqlite && name === DEFAULT_DATABASE ? 'demo-credentials.json' : `demo-credentials-${name}.json`);
}

/**
 * On the first start of an empty database, creates one demo client (auth_method both, tier
 * pro) and writes its credentials to the database's demo credentials file, mode 0600. They are
 * never logged. Returns the file's path when it created the client.
 */
export async function ensureDemoClient(deps: { clients: ClientsService; dataDir: string; databaseUrl: string }): Promise<string | undefined> {
  const { clients, dataDir, databaseUrl } = deps;
  // createFirst, not create: another node starting at once on the same database may be here too.
  const created = await clients.createFirst({ name: 'Demo client', tier: 'pro', authMethod: 'both' });
  if (created === undefined) return undefined;
  const { account, credentials } = created;
  const demo: DemoCredentials = {
    database: databaseLabel(databaseUrl),
    client_id: account.id,
    tenant_id: account.tenantId,
    name: account.name,
    tier: account.tier,
    auth_method: account.authMethod,
    api_key: credentials.apiKey,
    client_secret: credentials.clientSecret,
  };
  const file = demoCredentialsFile(dataDir, databaseUrl);
  mkdirSync(dataDir, { recursive: true });
  writePrivateFile(file, `${JSON.stringify(demo, null, 2)}\n`);
  return file;
}

/**
 * Writes a file only its owner can read, also when one with wider permissions was there:
 * `mode` applies only to a file being created, so the text goes to a new file (0600 from its
 * first byte) that then replaces the old one.
 */
function writePrivateFile(file: string, text: string): void {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    // A umask cannot widen a mode, but the explicit chmod does not depend on that reasoning.
    chmodSync(temporary, 0o600);
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}
