import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from './database.js';

/**
 * The database of DATABASE_URL cannot be used: it does not exist, or it cannot be reached. The
 * message is one line written for an operator, and never holds a password (PostgreSQL URLs are
 * shown as host:port and database name only).
 */
export class DatabaseMissingError extends Error {
  override name = 'DatabaseMissingError';
}

export interface ConnectOptions {
  /** Create the database when it does not exist (an SQLite file and its directory, a PostgreSQL database). */
  create?: boolean;
  poolSize?: number;
}

/** How long start-up waits for PostgreSQL to accept a connection before it reports the server unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;

/** PostgreSQL's SQLSTATE for "database does not exist" and for "database already exists". */
const INVALID_CATALOG_NAME = '3D000';
const DUPLICATE_DATABASE = '42P04';

/**
 * Opens the database of `url` after checking that it exists, so that a mistyped DATABASE_URL,
 * or a command run in the wrong directory, is refused with one line instead of creating an empty
 * database (an SQLite file, a `./data` directory) where nobody expects one. With `create`, a
 * missing database is created first (docs/decisions/0082).
 */
export async function connectDatabase(url: string, options: ConnectOptions = {}): Promise<Database> {
  const create = options.create ?? false;
  if (url.startsWith('sqlite:')) requireSqliteFile(url, create);
  else await requirePostgresDatabase(url, create);
  return openDatabase(url, options.poolSize === undefined ? {} : { poolSize: options.poolSize });
}

/** What names the database of `url`, safe to print and to use in a file name: an SQLite file's base name, a PostgreSQL database's name. */
export function databaseName(url: string): string {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    return path === ':memory:' || path === '' ? 'memory' : basename(path, extname(path));
  }
  const client = new pg.Client({ connectionString: url });
  return client.database ?? client.user ?? 'postgres';
}

/** The database of `url` for people: `sqlite:PATH`, or `postgres://host:port/name` without user or password. */
export function databaseLabel(url: string): string {
  if (url.startsWith('sqlite:')) return url;
  const client = new pg.Client({ connectionString: url });
  return `postgres://${client.host}:${client.port}/${databaseName(url)}`;
}

function requireSqliteFile(url: string, create: boolean): void {
  const path = url.slice('sqlite:'.length);
  if (path === ':memory:' || path === '' || existsSync(path)) return;
  if (!create) {
    throw new DatabaseMissingError(
      `no SQLite database at ${resolve(path)} (DATABASE_URL=${url}): run the command where the database is, set DATABASE_URL, ` +
        'or create it with `npx sportsdata migrate --create`',
    );
  }
  mkdirSync(dirname(path), { recursive: true });
}

async function requirePostgresDatabase(url: string, create: boolean): Promise<void> {
  const name = databaseName(url);
  const where = postgresServer(url);
  try {
    await withClient(url, async () => {});
  } catch (error) {
    if (errorCode(error) !== INVALID_CATALOG_NAME) throw unreachable(where, error);
    if (!create) {
      throw new DatabaseMissingError(
        `the PostgreSQL database "${name}" does not exist on ${where}: create it first (createdb ${name}, or npx sportsdata migrate --create)`,
      );
    }
    await createPostgresDatabase(url, name, where);
  }
}

/** CREATE DATABASE through the server's `postgres` maintenance database, with the same credentials. */
async function createPostgresDatabase(url: string, name: string, where: string): Promise<void> {
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  try {
    await withClient(maintenance.toString(), async (client) => {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    });
  } catch (error) {
    // Another node or operator created it meanwhile: that is what was asked for.
    if (errorCode(error) === DUPLICATE_DATABASE) return;
    throw new DatabaseMissingError(`cannot create the PostgreSQL database "${name}" on ${where}: ${reasonOf(error)}`);
  }
}

async function withClient(url: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // A connection lost after the check must not crash the process through an unhandled 'error'.
  client.on('error', () => {});
  try {
    await client.connect();
    await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function unreachable(where: string, error: unknown): DatabaseMissingError {
  return new DatabaseMissingError(`cannot connect to PostgreSQL at ${where}: ${reasonOf(error)}`);
}

function postgresServer(url: string): string {
  const client = new pg.Client({ connectionString: url });
  return `${client.host}:${client.port}`;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * The driver's or the server's own words: "connect ECONNREFUSED 127.0.0.1:5432", "password
 * authentication failed for user …". Node reports a refused connection to a name with several
 * addresses (localhost) as an AggregateError with an empty message: its code says it all.
 */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message.split('\n')[0] : undefined;
  return message || errorCode(error) || String(error);
}
