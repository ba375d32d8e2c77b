import type { Command } from 'commander';
import { CREDENTIALS_PAGE_SIZE_MAX, listedCredentials } from '../../modules/account/index.js';
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
  const list = (name: string, description: string) =>
    clients
      .command(name)
      .description(description)
      .argument('<client_id>', 'the client (UUID)')
      .option('--page <n>', 'page number, from 1', integerIn(1, Number.MAX_SAFE_INTEGER), 1)
      .option('--page-size <n>', `items per page, 1 to ${CREDENTIALS_PAGE_SIZE_MAX}`, integerIn(1, CREDENTIALS_PAGE_SIZE_MAX), DEFAULT_PAGE_SIZE)
      .option('--json', 'print machine-readable JSON (the paginated shape of the admin API)');

  list('api-keys', "list a client's API keys (never the keys themselves)").action(async (clientId: string, options: ListOptions) => {
    const paging = { page: options.page, page_size: options.pageSize };
    const page = await cli.withContext((ctx) => listedCredentials(ctx, clientId, 'api_key', paging));
    if (options.json) return cli.printJson(page);
    const rows = page.results.map((k) => [k.key_code, k.preview, k.active ? 'yes' : 'no', k.expires_at ?? '-', k.last_used_at ?? '-', k.name]);
    printPage(cli, page, 'key', ['KEY_CODE', 'PREVIEW', 'ACTIVE', 'EXPIRES_AT', 'LAST_USED_AT', 'NAME'], rows);
  });

  list('secrets', "list a client's client secrets (never the secrets themselves)").action(async (clientId: string, options: ListOptions) => {
    const paging = { page: options.page, page_size: options.pageSize };
    const page = await cli.withContext((ctx) => listedCredentials(ctx, clientId, 'client_secret', paging));
    if (options.json) return cli.printJson(page);
    printPage(cli, page, 'secret', ['SECRET_CODE', 'PREVIEW', 'CREATED_AT', 'NAME'], page.results.map((s) => [s.secret_code, s.secret_preview, s.created_at, s.name]));
  });

  clients
    .command('delete-api-key')
    .description('delete one API key of a client: it and the sessions it started stop working at once')
    .argument('<client_id>', 'the client (UUID)')
    .argument('<key_code>', 'the key_code of the API key')
    .action(async (clientId: string, keyCode: string) => {
      await cli.withContext((ctx) => ctx.credentials.delete(clientId, 'api_key', keyCode));
      cli.print(`Deleted API key ${keyCode} of client ${clientId}.`);
    });

  clients
    .command('delete-secret')
    .description('delete one client secret of a client: it and the sessions it started stop working at once')
    .argument('<client_id>', 'the client (UUID)')
    .argument('<secret_code>', 'the secret_code of the client secret')
    .action(async (clientId: string, secretCode: string) => {
      await cli.withContext((ctx) => ctx.credentials.delete(clientId, 'client_secret', secretCode));
      cli.print(`Deleted client secret ${secretCode} of client ${clientId}.`);
    });

  clients
    .command('delete')
    .description('offboard a client: every credential and token ends at once, later calls get 401 client_deleted; its usage history stays')
    .argument('<client_id>', 'the client (UUID)')
    .action(async (clientId: string) => {
      await cli.withContext((ctx) => ctx.clients.delete(clientId));
      cli.print(`Deleted client ${clientId}: its credentials and tokens no longer work.`);
    });
}

function printPage<T>(cli: Cli, page: Page<T>, noun: string, headers: string[], rows: string[][]): void {
  if (rows.length > 0) cli.print(table(headers, rows));
  cli.print(`page ${page.page} of ${page.total_pages} (${page.total_count} ${noun}${page.total_count === 1 ? '' : 's'})`);
}
