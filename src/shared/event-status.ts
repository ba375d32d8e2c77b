/**
 * The closed set of event statuses (docs/data.md#events): the import accepts these only, and
 * every event item carries one. Shared by the import (input) and the events lists (output).
 */
export const EVENT_STATUSES = ['scheduled', 'live', 'final', 'postponed', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** An event imported without a status. */
export const DEFAULT_EVENT_STATUS: EventStatus = 'scheduled';

/** Scores are counts of points, goals or games: non-negative integers that fit PostgreSQL's integer. */
export const MAX_SCORE = 1_000_000;

/** A stored status read back (the column is text). */
export function isEventStatus(value: string): value is EventStatus {
  return (EVENT_STATUSES as readonly string[]).includes(value);
}
