import { DEFAULT_EVENT_STATUS } from '../../shared/event-status.js';
import { iso } from '../../shared/wire.js';
import type { EventChange, EventUpdatedRecord, OutboxRow } from '../webhooks/index.js';
import type { Dataset } from './import.schemas.js';

/**
 * The event.updated webhooks of one import transaction (decision 0312). The import already reads
 * the stored events a dataset carries (to find those it moves to another league); that read also
 * gives what they were, so telling a change costs a comparison in memory and, when something
 * changed, one insert at the end of the transaction. A dataset without events (a feed's prices)
 * costs nothing. A competition's changes (its status, start, end) are told the same way, from a
 * read of the stored competitions a dataset carries (decision 0331).
 */

/** What of a stored matchup a webhook tells the changes of. */
export interface EventState {
  status: string;
  start_time: number;
  home_score: number | null;
  away_score: number | null;
}

/** What of a stored competition a webhook tells the changes of. */
export interface CompetitionState {
  status: string;
  start_time: number;
  end_time: number;
}

/** The stored states an import read before its writes (none in a replace), and the sport of each league. */
export interface StoredStates {
  storedEvents: ReadonlyMap<number, EventState>;
  storedCompetitions: ReadonlyMap<number, CompetitionState>;
  sportOfLeague: ReadonlyMap<number, number>;
}

export interface EventChanges {
  /**
   * Notes a dataset's events and competitions as written, with what they were (read in the
   * transaction before the write; absent, a new one). One written twice in one transaction (a
   * source's batch, the rows an alias releases) is compared from before the first write to after the last.
   */
  note(dataset: Pick<Dataset, 'events' | 'competitions'>, stored: StoredStates): void;
  /** One event.updated row per stored event whose status, start, score or end differs now, by event id; a new event none. */
  rows(now: number): OutboxRow[];
}

/** A matchup's or a competition's state, compared field by field: a matchup has no end, a competition no score. */
interface Compared {
  status: string;
  start_time: number;
  end_time: number | null;
  home_score: number | null;
  away_score: number | null;
}

type Shown = EventUpdatedRecord['event'];

export function eventChanges(): EventChanges {
  const before = new Map<number, Compared | null>();
  const after = new Map<number, { shown: Shown; now: Compared }>();
  const noteOne = (id: number, was: Compared | undefined, shown: Shown, now: Compared) => {
    if (!before.has(id)) before.set(id, was ?? null);
    after.set(id, { shown, now });
  };
  return {
    note({ events = [], competitions = [] }, stored) {
      for (const e of events) {
        const was = stored.storedEvents.get(e.id);
        const shown = {
          id: e.id,
          sport_id: stored.sportOfLeague.get(e.league_id) ?? 0,
          league_id: e.league_id,
          status: e.status ?? DEFAULT_EVENT_STATUS,
          start_time: iso(Date.parse(e.start_time)),
          home_team_id: e.home_team_id,
          away_team_id: e.away_team_id,
          home_score: e.home_score ?? null,
          away_score: e.away_score ?? null,
        };
        noteOne(e.id, was && { ...was, end_time: null }, shown, { ...shown, start_time: Date.parse(e.start_time), end_time: null });
      }
      for (const c of competitions) {
        const was = stored.storedCompetitions.get(c.id);
        const [start, end] = [Date.parse(c.start_time), Date.parse(c.end_time)];
        const shown = {
          id: c.id,
          kind: 'competition' as const,
          sport_id: stored.sportOfLeague.get(c.league_id) ?? 0,
          league_id: c.league_id,
          name: c.name,
          type: c.type,
          participant_type: c.participant_type,
          status: c.status ?? DEFAULT_EVENT_STATUS,
          start_time: iso(start),
          end_time: iso(end),
        };
        const scoreless = { home_score: null, away_score: null };
        noteOne(c.id, was && { ...was, ...scoreless }, shown, { status: shown.status, start_time: start, end_time: end, ...scoreless });
      }
    },
    rows(now) {
      const rows: OutboxRow[] = [];
      for (const [id, { shown: event, now: state }] of [...after].sort(([a], [b]) => a - b)) {
        const was = before.get(id);
        const changed = was ? changesOf(was, state) : [];
        if (changed.length === 0) continue;
        rows.push({ type: 'event.updated', data: { event, changed }, sport_id: event.sport_id, league_id: event.league_id, event_id: id, created_at: now });
      }
      return rows;
    },
  };
}

function changesOf(was: Compared, now: Compared): EventChange[] {
  const changed: EventChange[] = [];
  if (was.status !== now.status) changed.push('status');
  if (was.start_time !== now.start_time) changed.push('start_time');
  if (was.home_score !== now.home_score || was.away_score !== now.away_score) changed.push('score');
  if (was.end_time !== now.end_time) changed.push('end_time');
  return changed;
}

/** The columns of EventState, as the import reads them. */
export const EVENT_STATE_COLUMNS = ['status', 'start_time', 'home_score', 'away_score'] as const;

type StoredRow = Record<string, number | string | null>;

/** A stored event's row as the import's generic read gives it (PostgreSQL's bigint as text). */
export function eventStateOf(row: StoredRow): EventState {
  const score = (value: number | string | null | undefined) => (value === null || value === undefined ? null : Number(value));
  return { status: String(row.status), start_time: Number(row.start_time), home_score: score(row.home_score), away_score: score(row.away_score) };
}

/** A stored competition's state from its event's row (status, start) and its own (end). */
export function competitionStateOf(event: StoredRow, competition: StoredRow | undefined): CompetitionState {
  return { status: String(event.status), start_time: Number(event.start_time), end_time: Number(competition?.end_time ?? 0) };
}
