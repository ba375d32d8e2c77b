/**
 * Which database failures mean "the database is unavailable right now" rather than "our code
 * has a bug": a server that is down or restarting, a connection that broke, a pool that could
 * not hand out a connection in time, a file that is locked, read-only, full or unreadable. The
 * error handler answers those 503 SERVICE_UNAVAILABLE with Retry-After (docs/api.md, errors), in one
 * place, instead of 500; a handler never classifies them itself.
 */
export type UnavailableReason = 'unreachable' | 'busy' | 'read_only' | 'storage' | 'closed';

export interface Unavailable {
  reason: UnavailableReason;
  /** For the client: what is wrong, without internals. */
  message: string;
  /** How long a client should wait before trying again. */
  retryAfterSeconds: number;
}

/** Thrown by our own database layer when it gives up waiting (a lock held too long). */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const ANSWERS: Record<UnavailableReason, { message: string; retryAfterSeconds: number }> = {
  unreachable: { message: 'the database is unreachable; retry later', retryAfterSeconds: 5 },
  busy: { message: 'the database is busy; retry shortly', retryAfterSeconds: 1 },
  read_only: { message: 'the database does not accept writes at the moment; retry later', retryAfterSeconds: 30 },
  storage: { message: 'the database storage is failing; retry later', retryAfterSeconds: 30 },
  closed: { message: 'the service is shutting down; retry on another node or later', retryAfterSeconds: 5 },
};

// Socket-level failures reaching PostgreSQL (node:net errno codes).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01–57P03 (admin or crash shutdown,
 * starting up), class 53 (too many connections, disk full, out of memory), 25006 (a read-only
 * transaction: we reached a standby), 58030 (I/O error).
 */
function postgresReason(sqlState: string): UnavailableReason | undefined {
  if (sqlState.startsWith('08') || sqlState === '57P01' || sqlState === '57P02' || sqlState === '57P03') return 'unreachable';
  if (sqlState === '53100') return 'storage';
  if (sqlState.startsWith('53')) return 'busy';
  if (sqlState === '25006') return 'read_only';
  if (sqlState === '58030') return 'storage';
  return undefined;
}

/**
 * better-sqlite3's codes are SQLite's extended result codes by name (SQLITE_BUSY_SNAPSHOT,
 * SQLITE_READONLY_DBMOVED, SQLITE_IOERR_WRITE, …): the primary code is the prefix.
 */
function sqliteReason(code: string): UnavailableReason | undefined {
  const primary = /^SQLITE_[A-Z]+/.exec(code)?.[0];
  switch (primary) {
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return 'busy';
    case 'SQLITE_READONLY':
      return 'read_only';
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_IOERR':
    case 'SQLITE_FULL':
    case 'SQLITE_PROTOCOL':
    case 'SQLITE_NOLFS':
      return 'storage';
    default:
      return undefined;
  }
}

/**
 * Messages of errors that carry no code: pg's and pg-pool's connection failures, and the drivers
 * of a database that is being closed (a request that races the shutdown).
 */
const MESSAGES: Array<[RegExp, UnavailableReason]> = [
  [/^Connection terminated/, 'unreachable'],
  [/^timeout exceeded when trying to connect/, 'busy'],
  [/^Client has encountered a connection error and is not queryable/, 'unreachable'],
  [/^Cannot use a pool after calling end on the pool/, 'closed'],
  [/^The database connection is not open/, 'closed'],
  [/^driver has already been destroyed/, 'closed'],
];

function reasonOf(error: unknown, depth: number): UnavailableReason | undefined {
  if (!(error instanceof Error) || depth > 4) return undefined;
  if (error instanceof DatabaseUnavailableError) return error.reason;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return 'unreachable';
    if (code.startsWith('SQLITE_')) return sqliteReason(code);
    if (/^[0-9A-Z]{5}$/.test(code)) {
      const reason = postgresReason(code);
      if (reason) return reason;
    }
  }
  for (const [pattern, reason] of MESSAGES) if (pattern.test(error.message)) return reason;
  // A connection attempt to several addresses (localhost: ::1 and 127.0.0.1) fails as one AggregateError.
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const reason = reasonOf(inner, depth + 1);
      if (reason) return reason;
    }
  }
  return reasonOf(error.cause, depth + 1);
}

/** The database is unavailable (and for how long to back off), or undefined for any other error. */
export function databaseUnavailable(error: unknown): Unavailable | undefined {
  const reason = reasonOf(error, 0);
  return reason ? { reason, ...ANSWERS[reason] } : undefined;
}
