import type { Command } from 'commander';
import { CREDENTIALS_PAGE_SIZE_MAX, type CredentialPage, listedCredentials } from '../../modules/account/index.js';
import type { AccountCredentialKind } from '../../modules/auth/index.js';
import { DEFAULT_PAGE_SIZE, type Page } from '../../platform/pagination.js';
import { type Cli, integerIn, table } from '../runtime.js';

interface ListOptions {
  page: number;
  pageSize: number;
  json?: boolean;
}

/**
 * `sportsdata clients api-keys|secrets|delete-api-key|delete-secret|delete`: an operator sees and
 * deletes a client's credentials, and offboards a client, over the same services as the admin
 * API (same rules: the last credential of an enabled flow stays; listings show no secret).
 */
export function registerClientCredentials(clients: Command, cli: Cli): void {
  listCommand(clients, cli, 'api-keys', "list a client's API keys (never the keys themselves)", 'api_key', (page) => {
    const rows = page.results.map((k) => [k.key_code, k.preview, k.active ? 'yes' : 'no', k.expires_at ?? '-', k.last_used_at ?? '-', k.name]);
    printPage(cli, page, 'key', ['KEY_CODE', 'PREVIEW', 'ACTIVE', 'EXPIRES_AT', 'LAST_USED_AT', 'NAME'], rows);
  });

  listCommand(clients, cli, 'secrets', "list a client's client secrets (never the secrets themselves)", 'client_secret', (page) => {
    printPage(cli, page, 'secret', ['SECRET_CODE', 'PREVIEW', 'CREATED_AT', 'NAME'], page.results.map((s) => [s.secret_code, s.secret_preview, s.created_at, s.name]));
  });

  deleteCommand(clients, cli, 'delete-api-key', 'api_key', { noun: 'API key', code: 'key_code' });
  deleteCommand(clients, cli, 'delete-secret', 'client_secret', { noun: 'client secret', code: 'secret_code' });

  clients
    .command('delete')
    .description('offboard a client: every credential and token ends at once, later calls get 401 client_deleted; its usage history stays')
    .argument('<client_id>', 'the client (UUID)')
    .action(async (clientId: string) => {
      await cli.withContext((ctx) => ctx.clients.delete(clientId));
      cli.print(`Deleted client ${clientId}: its credentials and tokens no longer work.`);
    });
}

/** `clients api-keys|secrets <client_id>`: a page of the client's credentials of one kind, as a table or as the admin API's JSON. */
function listCommand<K extends AccountCredentialKind>(
  clients: Command,
  cli: Cli,
  name: string,
  description: string,
  kind: K,
  print: (page: CredentialPage<K>) => void,
): void {
  clients
    .command(name)
    .description(description)
    .argument('<client_id>', 'the client (UUID)')
    .option('--page <n>', 'page number, from 1', integerIn(1, Number.MAX_SAFE_INTEGER), 1)
    .option('--page-size <n>', `items per page, 1 to ${CREDENTIALS_PAGE_SIZE_MAX}`, integerIn(1, CREDENTIALS_PAGE_SIZE_MAX), DEFAULT_PAGE_SIZE)
    .option('--json', 'print machine-readable JSON (the paginated shape of the admin API)')
    .action(async (clientId: string, options: ListOptions) => {
      const paging = { page: options.page, page_size: options.pageSize };
      const page = await cli.withContext((ctx) => listedCredentials(ctx, clientId, kind, paging));
      if (options.json) return cli.printJson(page);
      print(page);
    });
}

/** `clients delete-api-key|delete-secret <client_id> <code>`: deletes one credential, as the admin API does. */
function deleteCommand(clients: Command, cli: Cli, name: string, kind: AccountCredentialKind, { noun, code }: { noun: string; code: string }): void {
  clients
    .command(name)
    .description(`delete one ${noun} of a client: it and the sessions it started stop working at once`)
    .argument('<client_id>', 'the client (UUID)')
    .argument(`<${code}>`, `the ${code} of the ${noun}`)
    .action(async (clientId: string, credentialCode: string) => {
      await cli.withContext((ctx) => ctx.credentials.delete(clientId, kind, credentialCode));
      cli.print(`Deleted ${noun} ${credentialCode} of client ${clientId}.`);
    });
}

function printPage<T>(cli: Cli, page: Page<T>, noun: string, headers: string[], rows: string[][]): void {
  if (rows.length > 0) cli.print(table(headers, rows));
  cli.print(`page ${page.page} of ${page.total_pages} (${page.total_count} ${noun}${page.total_count === 1 ? '' : 's'})`);
}
