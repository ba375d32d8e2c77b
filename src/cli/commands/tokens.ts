import { purgeExpiredRefreshTokens } from '../../modules/tokens/index.js';
import type { RegisterCommands } from '../runtime.js';

/** `sportsdata tokens purge`: deletes refresh tokens expired for over a day (serve does it hourly). */
export const registerTokens: RegisterCommands = (program, cli) => {
  const tokens = program.command('tokens').description('maintain refresh tokens');
  tokens
    .command('purge')
    .description('delete refresh tokens that expired more than a day ago (a serving process does this every hour)')
    .option('--json', 'print machine-readable JSON')
    .action(async (options: { json?: boolean }) => {
      const purged = await cli.withContext((ctx) => purgeExpiredRefreshTokens(ctx.database.db, ctx.clock));
      if (options.json) return cli.printJson({ purged });
      cli.print(`Deleted ${purged} expired refresh token(s).`);
    });
};
