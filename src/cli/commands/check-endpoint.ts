import type { Command } from 'commander';
import { type Cli, fields } from '../runtime.js';

/**
 * `sportsdata clients check-endpoint CLIENT_ID [--delete]`: an operator sees a client's check
 * endpoint as the client does (the token masked; it is never shown), or removes it, e.g. when it
 * misbehaves. Setting one is the client's own act, through its credentials.
 */
export function registerCheckEndpoint(clients: Command, cli: Cli): void {
  clients
    .command('check-endpoint')
    .description("show a client's check endpoint (its token masked), or remove it with --delete")
    .argument('<client_id>', 'the client (UUID)')
    .option('--delete', 'remove the endpoint and its token: the client\'s quotes answer 412 until it sets one again')
    .option('--json', 'print machine-readable JSON (the shape GET /v1/account/check-endpoint answers)')
    .action(async (clientId: string, options: { delete?: boolean; json?: boolean }) => {
      const data = await cli.withContext(async (ctx) => {
        // An unknown client is an error here, not an empty answer.
        await ctx.clients.get(clientId);
        if (options.delete) await ctx.checkEndpoints.remove(clientId);
        return options.delete ? null : await ctx.checkEndpoints.view(clientId);
      });
      if (options.json) return cli.printJson({ success: true, data });
      if (options.delete) return cli.print(`removed the check endpoint of ${clientId}`);
      cli.print(data === null ? 'no check endpoint is set' : fields(data));
    });
}
