import { DEFAULT_EVENT_STATUS } from '../../shared/event-status.js';
import type { OddsOutrightsTable } from '../../platform/db/schema.js';
import type { Resolved } from './import.references.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';

/**
 * Writing a dataset's competitions (docs/data.md#competitions): each an event of kind
 * `competition` (its team columns 0) with its own facts beside it, its participants with their
 * results, and what its odds rows say of a participant (decision 0325).
 */

type OddsItem = NonNullable<Dataset['odds']>[number];

/** The competitions as events and their facts, then their participants. */
export async function writeCompetitions(repo: ImportRepository, dataset: Dataset, resolved: Resolved, now: number): Promise<void> {
  const { competitions, competition_participants: participants } = dataset;
  if (competitions) {
    const columns = ['id', 'league_id', 'sport_id', 'start_time', 'status', 'home_team_id', 'away_team_id', 'home_score', 'away_score', 'kind'];
    await repo.upsert('events', columns, competitions, (c) => ({
      id: c.id,
      league_id: c.league_id,
      sport_id: resolved.sportOfLeague.get(c.league_id),
      start_time: Date.parse(c.start_time),
      status: c.status ?? DEFAULT_EVENT_STATUS,
      home_team_id: 0,
      away_team_id: 0,
      home_score: null,
      away_score: null,
      kind: 'competition',
    }));
    await repo.upsert('competitions', ['id', 'name', 'type', 'participant_type', 'end_time'], competitions, (c) => ({
      id: c.id,
      name: c.name,
      type: c.type,
      participant_type: c.participant_type,
      end_time: Date.parse(c.end_time),
    }));
    await repo.markEnded(competitions.filter((c) => c.status === 'final').map((c) => c.id), now);
  }
  if (participants) {
    const columns = ['id', 'event_id', 'team_id', 'player_id', 'name', 'finish_position', 'finish_status'];
    await repo.upsert('competition_participants', columns, participants, (p) => ({
      id: p.id,
      event_id: p.competition_id,
      team_id: p.team_id ?? null,
      player_id: p.player_id ?? null,
      name: resolved.competitions.participantNames.get(p.id) ?? '',
      finish_position: p.result?.position ?? null,
      finish_status: p.result?.status ?? null,
    }));
  }
}

/** What the odds rows that back a participant say of it, replacing what they said. Matchups' rows name none: nothing is read or written for them. */
export async function writeOutrights(repo: ImportRepository, odds: readonly OddsItem[]): Promise<void> {
  const backing = odds.filter((o) => o.participant_id !== null && o.participant_id !== undefined);
  if (backing.length === 0) return;
  const rows: OddsOutrightsTable[] = backing.map((o) => ({
    odds_id: o.id,
    event_id: o.event_id,
    participant_id: o.participant_id ?? 0,
    rival_ids: (o.rival_participant_ids ?? []).length === 0 ? null : [...(o.rival_participant_ids ?? [])].sort((a, b) => a - b).join(','),
    each_way_fraction: o.each_way?.fraction ?? null,
    each_way_places: o.each_way?.places ?? null,
  }));
  await repo.replaceOutrights(rows.map((r) => r.odds_id), rows);
}

/**
 * A price update makes a whole odds row from the stored one (import.price-updates.ts): a
 * competition's row gets back what it says of its participant, so that it keeps its selection.
 */
export async function withOutrights(rows: readonly OddsItem[], repo: ImportRepository): Promise<OddsItem[]> {
  if (rows.length === 0) return [];
  const stored = new Map((await repo.outrightsOf(rows.map((r) => r.id))).map((o) => [Number(o.odds_id), o]));
  if (stored.size === 0) return [...rows];
  return rows.map((row) => {
    const o = stored.get(row.id);
    if (o === undefined) return row;
    const rivals = o.rival_ids === null ? [] : o.rival_ids.split(',').map(Number);
    const fraction = o.each_way_fraction === null ? null : Number(o.each_way_fraction);
    const places = o.each_way_places === null ? null : Number(o.each_way_places);
    return {
      ...row,
      participant_id: Number(o.participant_id),
      ...(rivals.length > 0 ? { rival_participant_ids: rivals } : {}),
      each_way: fraction === null || places === null ? null : { fraction, places },
    };
  });
}
