import { InvalidArgumentError } from 'commander';
import { serve } from '../../cluster.js';
import { MAX_WORKERS, parseWorkerCount } from '../../config.js';
import type { RegisterCommands } from '../runtime.js';

/** `sportsdata serve`: the same start-up as `npm start`, configured by the environment. */
export const registerServe: RegisterCommands = (program, cli) => {
  program
    .command('serve')
    .description('migrate the database and serve the API (configured by the environment: PORT, HOST, DATABASE_URL, …)')
    .option('--workers <count>', 'processes serving the port: a number, or "auto" for one per core (default: WORKERS, else 1)', workerCount)
    .action(async (options: { workers?: number }) => {
      const config = cli.config();
      // Resolves once listening; the open server (or the cluster primary) keeps the process running until SIGINT/SIGTERM.
      await serve(options.workers === undefined ? config : { ...config, workers: options.workers });
    });
};

function workerCount(value: string): number {
  const count = parseWorkerCount(value);
  if (count === undefined) throw new InvalidArgumentError(`must be "auto" or an integer from 1 to ${MAX_WORKERS}.`);
  return count;
}
