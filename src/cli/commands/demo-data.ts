import { InvalidArgumentError, Option } from 'commander';
import { DEFAULT_SEED, hasNoSportsData, loadDemoData } from '../../modules/demo/index.js';
import { integerIn, type RegisterCommands } from '../runtime.js';
import { printCounts } from './import.js';

/** Above this the dataset (10M odds rows at 100) no longer fits a default Node heap. */
const MAX_SCALE = 20;

function scaleOption(value: string): number {
  const scale = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(scale > 0) || scale > MAX_SCALE) {
    throw new InvalidArgumentError(`must be a number above 0 and at most ${MAX_SCALE} (1 = 100,000 odds rows).`);
  }
  return scale;
}

/** `sportsdata demo-data`: generates the demo dataset and imports it into DATABASE_URL. */
export const registerDemoData: RegisterCommands = (program, cli) => {
  program
    .command('demo-data')
    .description('generate the demo dataset (events on 14 days from today, UTC) and import it; --scale 10 makes 1M odds rows for benchmarks')
    .option('--scale <n>', `size: 1 = 600 teams, 2,000 events, 100,000 odds, 20,000 flows (up to ${MAX_SCALE})`, scaleOption, 1)
    .option('--seed <n>', 'seed of the generator: the same seed, scale and start time give the same dataset', integerIn(0, 2 ** 32 - 1), DEFAULT_SEED)
    .option('--force', 'replace the sports data already in the database (clients are kept)')
    .option('--no-competitions', 'leave out the competitions (added by default, as on the first start: a golf tournament and a race last week and this, a season-winner and a top-scorer futures market per league)')
    // Said by scripts written when the competitions had to be asked for: the default now.
    .addOption(new Option('--competitions').hideHelp())
    .option('--json', 'print machine-readable JSON')
    .action(async (options: { scale: number; seed: number; force?: boolean; competitions?: boolean; json?: boolean }) => {
      const started = performance.now();
      const upserted = await cli.withContext(async (ctx) => {
        if (!options.force && !(await hasNoSportsData(ctx))) {
          throw new Error('the database already holds sports data; pass --force to replace it with the demo dataset (clients are kept)');
        }
        return loadDemoData(ctx, { scale: options.scale, seed: options.seed, force: options.force ?? false, competitions: options.competitions !== false });
      });
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      if (options.json) return cli.printJson({ scale: options.scale, seed: options.seed, seconds, upserted });
      printCounts(cli, upserted);
      cli.print(`Generated and imported the demo dataset (scale ${options.scale}, seed ${options.seed}) in ${seconds} s.`);
    });
};
