import { startServer } from '../../serve.js';
import type { RegisterCommands } from '../runtime.js';

/** `sportsdata serve`: the same start-up as `npm start`, configured by the environment. */
export const registerServe: RegisterCommands = (program, cli) => {
  program
    .command('serve')
    .description('migrate the database and serve the API (configured by the environment: PORT, HOST, DATABASE_URL, …)')
    .action(async () => {
      // Resolves once listening; the open server keeps the process running until SIGINT/SIGTERM.
      await startServer(cli.config());
    });
};
