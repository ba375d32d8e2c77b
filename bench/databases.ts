import { join } from 'node:path';
import { throwawayPostgres } from '../test/helpers/throwaway-database.js';

export type BenchDatabase = 'sqlite' | 'postgres';

/** Where a scenario group keeps its data: an SQLite file in its directory, or a throwaway PostgreSQL database. */
export interface Throwaway {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one group. PostgreSQL: a new database on the server `serverUrl` names
 * (--pg, else TEST_DATABASE_URL), dropped afterwards, like the test suite does.
 */
export async function throwawayDatabase(kind: BenchDatabase, dataDir: string, serverUrl: string | undefined): Promise<Throwaway> {
  if (kind === 'sqlite') return { url: `sqlite:${join(dataDir, 'db.sqlite')}`, drop: async () => {} };
  if (serverUrl === undefined) throw new Error('--database postgres needs --pg postgres://… (or TEST_DATABASE_URL): a server where the bench may create databases');
  return throwawayPostgres(serverUrl, 'bench');
}

/** A bench's command line: `flag('name')` is the value after `--name`, `flags('name')` every such value; `databases()` what `--database sqlite|postgres|both` names. */
export function benchArgs(args: readonly string[]) {
  const flag = (name: string): string | undefined => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  /** Every value of a flag given more than once (`--build A --build B`). */
  const flags = (name: string): string[] => args.flatMap((arg, i) => (arg === `--${name}` && args[i + 1] !== undefined ? [args[i + 1] as string] : []));
  const databases = (byDefault: 'sqlite' | 'postgres' | 'both'): BenchDatabase[] => {
    const value = flag('database') ?? byDefault;
    return value === 'both' ? ['sqlite', 'postgres'] : [value === 'postgres' ? 'postgres' : 'sqlite'];
  };
  return { flag, flags, databases };
}
