import { DEFAULT_EVENT_STATUS } from '../../shared/event-status.js';
import { iso } from '../../shared/wire.js';
import type { EventChange, EventUpdatedRecord, OutboxRow } from '../webhooks/index.js';
import type { Dataset } from './import.schemas.js';

/**
 * The event.updated webhooks of one import transaction (decision 0312). The import already reads
 * the stored events a dataset carries (to find those it moves to another league); that read also
 * gives what they were, so telling a change costs a comparison in memory and, when something
 * changed, one insert at the end of the transaction. A dataset without events (a feed's prices)
 * costs nothing.
 */

/** What of a stored event a webhook tells the changes of. */
export interface EventState {
  status: string;
  start_time: number;
  home_score: number | null;
  away_score: number | null;
}

export interface EventChanges {
  /**
   * Notes a dataset's events as written, with what they were (`stored`: read in the transaction
   * before the write; absent, a new event). An event written twice in one transaction (a source's
   * batch, the rows an alias releases) is compared from before the first write to after the last.
   */
  note(events: NonNullable<Dataset['events']>, stored: ReadonlyMap<number, EventState>, sportOfLeague: ReadonlyMap<number, number>): void;
  /** One event.updated row per stored event whose status, start or score differs now, by event id; a new event none. */
  rows(now: number): OutboxRow[];
}

export function eventChanges(): EventChanges {
  const before = new Map<number, EventState | null>();
  const after = new Map<number, EventUpdatedRecord['event']>();
  return {
    note(events, stored, sportOfLeague) {
      for (const e of events) {
        if (!before.has(e.id)) before.set(e.id, stored.get(e.id) ?? null);
        after.set(e.id, {
          id: e.id,
          sport_id: sportOfLeague.get(e.league_id) ?? 0,
          league_id: e.league_id,
          status: e.status ?? DEFAULT_EVENT_STATUS,
          start_time: iso(Date.parse(e.start_time)),
          home_team_id: e.home_team_id,
          away_team_id: e.away_team_id,
          home_score: e.home_score ?? null,
          away_score: e.away_score ?? null,
        });
      }
    },
    rows(now) {
      const rows: OutboxRow[] = [];
      for (const [id, event] of [...after].sort(([a], [b]) => a - b)) {
        const was = before.get(id);
        const changed = was ? changesOf(was, event) : [];
        if (changed.length === 0) continue;
        rows.push({ type: 'event.updated', data: { event, changed }, sport_id: event.sport_id, league_id: event.league_id, event_id: id, created_at: now });
      }
      return rows;
    },
  };
}

function changesOf(was: EventState, now: EventUpdatedRecord['event']): EventChange[] {
  const changed: EventChange[] = [];
  if (was.status !== now.status) changed.push('status');
  if (was.start_time !== Date.parse(now.start_time)) changed.push('start_time');
  if (was.home_score !== now.home_score || was.away_score !== now.away_score) changed.push('score');
  return changed;
}

/** The columns of EventState, as the import reads them. */
export const EVENT_STATE_COLUMNS = ['status', 'start_time', 'home_score', 'away_score'] as const;

/** A stored event's row as the import's generic read gives it (PostgreSQL's bigint as text). */
export function eventStateOf(row: Record<string, number | string | null>): EventState {
  const score = (value: number | string | null | undefined) => (value === null || value === undefined ? null : Number(value));
  return { status: String(row.status), start_time: Number(row.start_time), home_score: score(row.home_score), away_score: score(row.away_score) };
}
