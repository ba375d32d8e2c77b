import { type Command, InvalidArgumentError, Option } from 'commander';
import { CLIENTS_PAGE_SIZE_MAX, NAME_MAX_LENGTH, clientsList, clientView, clientWithCredentialsView, createdClientView } from '../../modules/admin/index.js';
import { AUTH_METHODS, type AuthMethod, type ClientAccount, FLOW_VOCABULARIES, type FlowVocabulary, TIERS, type Tier } from '../../modules/auth/index.js';
import { isLimit, LIMIT_MAX } from '../../modules/limits/index.js';
import type { AppContext } from '../../context.js';
import { DEFAULT_PAGE_SIZE } from '../../platform/pagination.js';
import { type Cli, fields, integerIn, type RegisterCommands, table } from '../runtime.js';
import { registerCheckEndpoint } from './check-endpoint.js';
import { registerClientCredentials } from './client-credentials.js';

const SHOWN_ONCE = 'Store the API key and client secret now: they will not be shown again.';

// The same rules as the admin API's schemas, so that both entry points accept the same input.
const tierOption = (flags: string) => new Option(flags, 'account tier').choices(TIERS);
const authMethodOption = (flags: string) => new Option(flags, 'the authentication flows the client may use').choices(AUTH_METHODS);

function clientName(value: string): string {
  if (value.length < 1 || value.length > NAME_MAX_LENGTH || !/\S/.test(value)) {
    throw new InvalidArgumentError(`must be 1 to ${NAME_MAX_LENGTH} characters, not only blanks.`);
  }
  return value;
}

/**
 * `--rate-limit-per-minute` and `--daily-quota`: an integer, or `default` (back to the tier's).
 * Kept as the text `default` here: commander turns an option value of null into an empty string.
 */
function override(value: string): number | 'default' {
  if (value === 'default') return value;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !isLimit(n)) throw new InvalidArgumentError(`must be an integer from 1 to ${LIMIT_MAX}, or "default" for the tier's.`);
  return n;
}

/** The admin API's view of an account, with the limits in force. */
const viewOf = (ctx: AppContext, account: ClientAccount) => clientView(account, ctx.limits.effective(account));

interface JsonOption {
  json?: boolean;
}

/** `sportsdata clients …`: onboarding and management over ClientsService, as the admin API. */
export const registerClients: RegisterCommands = (program, cli) => {
  const clients = program.command('clients').description('onboard and manage client accounts');
  registerCreate(clients, cli);
  registerReads(clients, cli);
  registerUpdate(clients, cli);
  registerRotateCredentials(clients, cli);
  registerClientCredentials(clients, cli);
  registerCheckEndpoint(clients, cli);
};

/** `clients create`. */
function registerCreate(clients: Command, cli: Cli): void {
  clients
    .command('create')
    .description('onboard a client; prints its API key and client secret, once')
    .requiredOption('--name <name>', `a label for operators (1 to ${NAME_MAX_LENGTH} characters)`, clientName)
    .addOption(tierOption('--tier <tier>').makeOptionMandatory())
    .addOption(authMethodOption('--auth-method <method>').makeOptionMandatory())
    .option('--tenant-id <id>', 'add the client to this existing tenant (default: a new tenant)')
    .option('--json', 'print machine-readable JSON')
    .action(async (options: { name: string; tier: Tier; authMethod: AuthMethod; tenantId?: string } & JsonOption) => {
      const { account, view } = await cli.withContext(async (ctx) => {
        const created = await ctx.clients.create({ name: options.name, tier: options.tier, authMethod: options.authMethod, tenantId: options.tenantId });
        return { account: created.account, view: createdClientView(created.account, ctx.limits.effective(created.account), created.credentials) };
      });
      if (options.json) return cli.printJson(view);
      cli.print(`Created client ${account.id}`);
      cli.print(humanFields(view));
      cli.print(SHOWN_ONCE);
    });
}

/** `clients list` and `clients get`. */
function registerReads(clients: Command, cli: Cli): void {
  clients
    .command('list')
    .description('list client accounts, oldest first')
    .option('--page <n>', 'page number, from 1', integerIn(1, Number.MAX_SAFE_INTEGER), 1)
    .option('--page-size <n>', `clients per page, 1 to ${CLIENTS_PAGE_SIZE_MAX}`, integerIn(1, CLIENTS_PAGE_SIZE_MAX), DEFAULT_PAGE_SIZE)
    .option('--json', 'print machine-readable JSON (the paginated shape of the admin API)')
    .action(async (options: { page: number; pageSize: number } & JsonOption) => {
      const paging = { page: options.page, page_size: options.pageSize };
      const page = await cli.withContext((ctx) => clientsList(ctx).page({}, paging));
      if (options.json) return cli.printJson(page);
      if (page.results.length > 0) {
        const rows = page.results.map((c) => [c.client_id, c.tier, c.auth_method, statusOf(c), c.created_at, c.name]);
        cli.print(table(['CLIENT_ID', 'TIER', 'AUTH_METHOD', 'STATUS', 'CREATED_AT', 'NAME'], rows));
      }
      cli.print(`page ${page.page} of ${page.total_pages} (${page.total_count} client${page.total_count === 1 ? '' : 's'})`);
    });

  clients
    .command('get')
    .description('show one client account')
    .argument('<client_id>', 'the client (UUID)')
    .option('--json', 'print machine-readable JSON')
    .action(async (clientId: string, options: JsonOption) => {
      printClient(cli, await cli.withContext(async (ctx) => viewOf(ctx, await ctx.clients.get(clientId))), options);
    });
}

/** `clients update`. */
function registerUpdate(clients: Command, cli: Cli): void {
  const update = clients.command('update');
  update
    .description('change auth_method, tier, disabled, the limit overrides or the flow vocabulary; takes effect on the next request, also for issued tokens')
    .argument('<client_id>', 'the client (UUID)')
    .addOption(authMethodOption('--auth-method <method>'))
    .addOption(tierOption('--tier <tier>'))
    .addOption(new Option('--disable', 'disable the client: 401 everywhere').conflicts('enable'))
    .addOption(new Option('--enable', 'enable a disabled client'))
    .option('--rate-limit-per-minute <n|default>', "override the tier's per-minute rate; default: back to the tier's", override)
    .option('--daily-quota <n|default>', "override the tier's daily quota; default: back to the tier's", override)
    .addOption(new Option('--flow-vocabulary <vocabulary>', "the names flow answers give flow_type in: ours, or odditt for a client written for Odditt").choices(FLOW_VOCABULARIES))
    .option('--json', 'print machine-readable JSON')
    .action(async (clientId: string, options: UpdateOptions & JsonOption) => {
      const disabled = options.disable ? true : options.enable ? false : undefined;
      const { authMethod, tier, flowVocabulary } = options;
      const rateLimitPerMinute = options.rateLimitPerMinute === 'default' ? null : options.rateLimitPerMinute;
      const dailyQuota = options.dailyQuota === 'default' ? null : options.dailyQuota;
      if ([authMethod, tier, disabled, rateLimitPerMinute, dailyQuota, flowVocabulary].every((value) => value === undefined)) {
        update.error('error: nothing to update: give --auth-method, --tier, --disable, --enable, --rate-limit-per-minute, --daily-quota or --flow-vocabulary');
      }
      const view = await cli.withContext(async (ctx) =>
        viewOf(ctx, await ctx.clients.update(clientId, { authMethod, tier, disabled, rateLimitPerMinute, dailyQuota, flowVocabulary })),
      );
      printClient(cli, view, options);
    });
}

/** `clients rotate-credentials`. */
function registerRotateCredentials(clients: Command, cli: Cli): void {
  clients
    .command('rotate-credentials')
    .description('emergency reset: replace every API key and client secret with one new pair and end every session; prints the new ones, once')
    .argument('<client_id>', 'the client (UUID)')
    .option('--json', 'print machine-readable JSON')
    .action(async (clientId: string, options: JsonOption) => {
      const { account, view } = await cli.withContext(async (ctx) => {
        const rotated = await ctx.clients.rotateCredentials(clientId);
        return { account: rotated.account, view: clientWithCredentialsView(rotated.account, ctx.limits.effective(rotated.account), rotated.credentials) };
      });
      if (options.json) return cli.printJson(view);
      cli.print(`Reset the credentials of client ${account.id}; the old API keys, client secrets and tokens no longer work.`);
      cli.print(humanFields(view));
      cli.print(SHOWN_ONCE);
    });
}

interface UpdateOptions {
  authMethod?: AuthMethod;
  tier?: Tier;
  disable?: boolean;
  enable?: boolean;
  rateLimitPerMinute?: number | 'default';
  dailyQuota?: number | 'default';
  flowVocabulary?: FlowVocabulary;
}

/**
 * One word for what an operator asks of a listed client: does it work. An offboarded client keeps
 * `disabled` as it was (its rows stay for billing), so deletion is said first: it outranks the rest.
 */
function statusOf(client: { disabled: boolean; deleted_at: string | null }): 'deleted' | 'disabled' | 'active' {
  if (client.deleted_at !== null) return 'deleted';
  return client.disabled ? 'disabled' : 'active';
}

function printClient(cli: Cli, view: ReturnType<typeof clientView>, options: JsonOption): void {
  if (options.json) cli.printJson(view);
  else cli.print(humanFields(view));
}

/** `key: value` lines, the effective limits on one line. */
function humanFields(view: { effective_limits: { per_minute: number | null; per_day: number | null } }): string {
  const { per_minute, per_day } = view.effective_limits;
  return fields({ ...view, effective_limits: `${per_minute ?? 'no cap'}/minute, ${per_day ?? 'no cap'}/day` });
}
