import { DatabaseUnavailableError, databaseUnavailable, type UnavailableReason } from '../../platform/db/unavailable.js';
import type { ChangeVersionName } from '../../platform/db/schema.js';
import { ApiError, type ErrorCode, type ErrorDetail } from '../../platform/errors.js';
import type { StreamRow } from '../history/index.js';
import type { ImportResult } from './import-result.schemas.js';
import type { Dataset } from './import.schemas.js';

/** What the serving thread asks of the import thread. */
export type ToImportThread =
  /** `now`: the serving thread's clock, which the import and the work after it read (a test's pinned clock too). */
  { type: 'import'; id: number; dataset: Dataset; now: number } | { type: 'stop' };

/** What the import thread tells the serving thread, in the order it happens. */
export type FromImportThread =
  | { type: 'ready' }
  /** An import's changes after its commit, for the serving thread's streams (the history's rows, not read back). */
  | { type: 'hold'; after: number; rows: readonly StreamRow[] }
  /** A counter the thread bumped has committed: the serving thread reads the counters, and its caches and streams follow. */
  | { type: 'changed'; name: ChangeVersionName }
  | { type: 'done'; id: number; result: ImportResult }
  | { type: 'failed'; id: number; error: ThreadError };

/**
 * An import's failure as it crosses to the serving thread: a structured clone keeps an Error's
 * message and loses its class and fields, which say the answer (a 422's details, a busy database's 503).
 */
export type ThreadError =
  | { kind: 'api'; code: ErrorCode; message: string; details?: ErrorDetail[]; reason?: string; headers: Record<string, string> }
  | { kind: 'unavailable'; reason: UnavailableReason; message: string }
  | { kind: 'other'; message: string };

export function threadErrorOf(error: unknown): ThreadError {
  if (error instanceof ApiError) {
    return {
      kind: 'api',
      code: error.code,
      message: error.message,
      headers: error.headers,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...(error.reason === undefined ? {} : { reason: error.reason }),
    };
  }
  const unavailable = databaseUnavailable(error);
  if (unavailable) return { kind: 'unavailable', reason: unavailable.reason, message: unavailable.message };
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
}

/** The error the serving thread throws for the import's: answered as it would have been in the serving thread. */
export function errorOfThread(error: ThreadError): Error {
  switch (error.kind) {
    case 'api':
      return new ApiError(error.code, error.message, {
        headers: error.headers,
        ...(error.details === undefined ? {} : { details: error.details }),
        ...(error.reason === undefined ? {} : { reason: error.reason }),
      });
    case 'unavailable':
      return new DatabaseUnavailableError(error.reason, error.message);
    case 'other':
      return new Error(`the import thread failed: ${error.message}`);
  }
}
