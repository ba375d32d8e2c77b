import { readFile, stat } from 'node:fs/promises';
import { createImportService, IMPORT_LIMITS, readDatasetFile } from '../../modules/import/index.js';
import { createSourcesService, readFootballData, readTheOddsApi, releaseAliased, THE_ODDS_API_LIMITS } from '../../modules/sources/index.js';
import { EVENTS_PER_BATCH_UNSERVED } from '../../modules/results/index.js';
import { ApiError } from '../../platform/errors.js';
import { type Cli, type RegisterCommands, table } from '../runtime.js';

/** `sportsdata import FILE`: the import of POST /admin/v1/import, from a JSON file (the same limits, import.body.ts). */
export const registerImport: RegisterCommands = (program, cli) => {
  program
    .command('import')
    .description('import a dataset file (the format of POST /admin/v1/import, at most 64 MiB): validated whole, then upserted by id, all or nothing')
    .argument('<files...>', 'a JSON file with any of: sports, leagues, teams, players, operators, betting_markets, events, odds, flows; with --format, files of that source')
    .option('--format <format>', 'football-data (CSV files) or the-odds-api (JSON answers): matched to stored records (docs/operations.md#loading-real-data)')
    .option('--skip-invalid', 'with --format: import the valid rows and list the others')
    .option('--odds-format <format>', 'with --format the-odds-api: decimal (default) or american')
    .option('--json', 'print machine-readable JSON ({"upserted": {...}})')
    .action(async (files: string[], options: { json?: boolean; format?: string; skipInvalid?: boolean; oddsFormat?: string }) => {
      if (options.format !== undefined) return importSourceFiles(cli, files, options);
      const [file, ...others] = files;
      if (file === undefined || others.length > 0) throw new Error('give one dataset file (several files only with --format)');
      const dataset = await readDatasetFile(file);
      const started = performance.now();
      const result = await cli.withContext((ctx) => createImportService({ ...ctx, releaseAliased, gradingBatch: EVENTS_PER_BATCH_UNSERVED }).import(dataset)).catch((error: unknown) => {
        printDetails(cli, error);
        throw error;
      });
      if (options.json) return cli.printJson(result);
      printCounts(cli, result.upserted);
      if (result.released) cli.print(`Aliases released rows of the review queue: ${result.released.imported.events} events, ${result.released.imported.odds} prices, ${result.released.imported.results} results; ${result.released.queued} rows still waiting.`);
      cli.print(`Imported ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    });
};

/**
 * `--format`: each file read by its source's reader and imported through the source importer, one transaction per file.
 * The CLI serves no reads: grading takes 100 events per transaction, as before a node serves (decision 0249).
 */
async function importSourceFiles(cli: Cli, files: readonly string[], options: { json?: boolean; format?: string; skipInvalid?: boolean; oddsFormat?: string }): Promise<void> {
  if (options.format !== 'football-data' && options.format !== 'the-odds-api') throw new Error('--format is football-data or the-odds-api');
  if (options.oddsFormat !== undefined && options.oddsFormat !== 'decimal' && options.oddsFormat !== 'american') throw new Error('--odds-format is decimal or american');
  const oddsFormat = options.oddsFormat ?? 'decimal';
  const results = [];
  for (const file of files) {
    const batch = options.format === 'football-data' ? readFootballData(await readSourceText(file)) : readTheOddsApi(await readDatasetFile(file, THE_ODDS_API_LIMITS), { oddsFormat });
    const result = await cli
      .withContext((ctx) => createSourcesService({ database: ctx.database, importer: createImportService({ ...ctx, gradingBatch: EVENTS_PER_BATCH_UNSERVED }) }).importBatch(batch, { skipInvalid: options.skipInvalid === true }))
      .catch((error: unknown) => {
        printDetails(cli, error);
        throw error;
      });
    results.push({ file, ...result });
    if (!options.json) cli.print(`${file}: ${result.imported.events} events, ${result.imported.odds} prices, ${result.imported.results} results; ${result.queued} rows queued; ${result.skipped.length} skipped`);
  }
  if (options.json) cli.printJson(results);
}

/** A CSV file under the import's size limit, refused by its size before it is read. */
async function readSourceText(file: string): Promise<string> {
  const size = (await stat(file).catch(() => {
    throw new Error(`cannot read ${file}`);
  })).size;
  if (size > IMPORT_LIMITS.maxBytes) throw new ApiError('PAYLOAD_TOO_LARGE', `${file} is larger than 64 MiB, the most an import takes`);
  return readFile(file, 'utf8');
}

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
