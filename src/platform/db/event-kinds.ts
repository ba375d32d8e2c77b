import { type SelectQueryBuilder, sql } from 'kysely';
import { EVENT_KINDS } from './schema.js';

/**
 * The one place a query is narrowed to the kinds of events a request asks for (`event_kinds`,
 * shared/event-kinds.ts): `column` is the events' `kind` as the query names it (`e.kind`,
 * `events.kind`). Every kind asked is no narrowing at all.
 */
export function whereEventKinds<DB, TB extends keyof DB, O>(select: SelectQueryBuilder<DB, TB, O>, column: string, kinds: readonly string[]): SelectQueryBuilder<DB, TB, O> {
  if (EVENT_KINDS.every((kind) => kinds.includes(kind))) return select;
  return select.where(sql.ref(column), 'in', [...kinds]);
}
