import { readFileSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { ApiError } from '../platform/errors.js';
import { registerClients } from './commands/clients.js';
import { registerDemoData } from './commands/demo-data.js';
import { registerFeed } from './commands/feed.js';
import { registerImport } from './commands/import.js';
import { registerTokens } from './commands/tokens.js';
import { registerUsage } from './commands/usage.js';
import { registerMigrate } from './commands/migrate.js';
import { registerServe } from './commands/serve.js';
import { type CliIo, createCli, type RegisterCommands } from './runtime.js';

/**
 * Every command group of `sportsdata`, in help order. A new group is one file in commands/
 * exporting a RegisterCommands function, imported above and listed here.
 */
const COMMANDS: RegisterCommands[] = [
  registerServe,
  registerMigrate,
  registerClients,
  registerImport,
  registerFeed,
  registerDemoData,
  registerTokens,
  registerUsage,
];

// package.json is two levels up from both src/cli/ and dist/cli/.
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/**
 * Runs the CLI in-process on `argv` (the arguments after the program name) and returns the exit
 * code: 0, or 1 with a one-line message on stderr. Tests call it with buffers for io.
 */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  const program = new Command('sportsdata')
    .description('Operate the Sports Data B2B API: serve it, migrate its database, manage client accounts.')
    .version(`${version} (Node ${process.version})`)
    // Settings are copied to subcommands when they are added, so they come first.
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) })
    .showSuggestionAfterError();
  const cli = createCli(io);
  for (const register of COMMANDS) register(program, cli);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has printed its own message (usage error) or the help already.
    if (error instanceof CommanderError) return error.exitCode;
    io.stderr.write(`error: ${messageOf(error)}\n`);
    return 1;
  }
}

function messageOf(error: unknown): string {
  // ApiError and ConfigError messages are written for the user and never carry a secret; any
  // other error (e.g. the database unreachable) is reported by its message alone, no stack.
  if (error instanceof ApiError || error instanceof ConfigError || error instanceof Error) return error.message;
  return String(error);
}

/** True when this file is the script node was started with (not when imported, e.g. by tests). */
function isProcessEntry(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === import.meta.url;
  } catch {
    return false;
  }
}

if (isProcessEntry()) process.exitCode = await runCli(process.argv.slice(2));
