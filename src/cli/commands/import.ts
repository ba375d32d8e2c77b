import { createImportService, readDatasetFile } from '../../modules/import/index.js';
import { ApiError } from '../../platform/errors.js';
import { type Cli, type RegisterCommands, table } from '../runtime.js';

/** `sportsdata import FILE`: the import of POST /admin/v1/import, from a JSON file (the same limits, import.body.ts). */
export const registerImport: RegisterCommands = (program, cli) => {
  program
    .command('import')
    .description('import a dataset file (the format of POST /admin/v1/import, at most 64 MiB): validated whole, then upserted by id, all or nothing')
    .argument('<file>', 'a JSON file with any of: sports, leagues, teams, players, operators, betting_markets, events, odds, flows')
    .option('--json', 'print machine-readable JSON ({"upserted": {...}})')
    .action(async (file: string, options: { json?: boolean }) => {
      const dataset = await readDatasetFile(file);
      const started = performance.now();
      const result = await cli.withContext((ctx) => createImportService(ctx).import(dataset)).catch((error: unknown) => {
        printDetails(cli, error);
        throw error;
      });
      if (options.json) return cli.printJson(result);
      printCounts(cli, result.upserted);
      cli.print(`Imported ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    });
};

/** Every problem of a refused dataset, one per line, before the one-line error. */
function printDetails(cli: Cli, error: unknown): void {
  if (!(error instanceof ApiError) || !error.details?.length) return;
  for (const detail of error.details) cli.io.stderr.write(`  ${detail.field}: ${detail.rule}\n`);
}

export function printCounts(cli: Cli, upserted: Record<string, number | undefined>): void {
  const rows = Object.entries(upserted).map(([array, count]) => [array, String(count ?? 0)]);
  if (rows.length === 0) return cli.print('The dataset was empty: nothing to import.');
  cli.print(table(['ARRAY', 'UPSERTED'], rows));
}
