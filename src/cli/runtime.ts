import { type Command, InvalidArgumentError } from 'commander';
import { type Config, loadConfig } from '../config.js';
import { type AppContext, createContext } from '../context.js';
import { connectDatabase } from '../platform/db/connect.js';
import { migrateToLatest } from '../platform/db/migrations.js';

/** Where the CLI reads and writes: the process's streams and environment, or a test's buffers. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
}

/** What a command needs: output, the config, and the same services the HTTP app uses. */
export interface Cli {
  readonly io: CliIo;
  /** The validated config from `io.env` (loadConfig is the only reader of the environment). */
  config(): Config;
  /**
   * Opens the database, migrates it, builds the context, runs `work`, closes the database.
   * Commands call services on the context, never the HTTP API. A database that does not exist
   * is refused: only `migrate --create` and `serve` create one (docs/decisions/0082).
   */
  withContext<T>(work: (ctx: AppContext) => Promise<T>): Promise<T>;
  print(line?: string): void;
  printJson(value: unknown): void;
}

/** A command group's registration: adds its commands to the program. */
export type RegisterCommands = (program: Command, cli: Cli) => void;

export function createCli(io: CliIo): Cli {
  const config = () => loadConfig(io.env);
  return {
    io,
    config,
    async withContext(work) {
      const cfg = config();
      const database = await connectDatabase(cfg.databaseUrl);
      try {
        const applied = await migrateToLatest(database.db);
        // Any command may be the first to meet a new release's schema: an operator must learn that it changed it.
        // On stderr: stdout is the command's answer, which scripts read (--json).
        if (applied.length > 0) io.stderr.write(`migrated the database: ${applied.join(', ')}\n`);
        return await work(createContext({ config: cfg, database }));
      } finally {
        await database.close();
      }
    },
    print: (line = '') => void io.stdout.write(`${line}\n`),
    printJson: (value) => void io.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
  };
}

/** An option parser for integers in [min, max]; commander reports the message and exits 1. */
export function integerIn(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) {
      throw new InvalidArgumentError(max === Number.MAX_SAFE_INTEGER ? `must be an integer of at least ${min}.` : `must be an integer from ${min} to ${max}.`);
    }
    return n;
  };
}

/** Aligned `key: value` lines for human output. */
export function fields(record: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(record).map((key) => key.length)) + 1;
  return Object.entries(record)
    .map(([key, value]) => `${`${key}:`.padEnd(width)} ${String(value)}`)
    .join('\n');
}

/** A plain text table: a header row, then one row per item, columns padded to fit. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
