import { isOutrightRule } from '../../shared/settlement/rules.js';
import type { Problems } from './import.checks.js';
import type { KnownRecords } from './import.known-records.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';

/**
 * The checks of a dataset's competitions (docs/data.md#competitions): an id is a matchup's or a
 * competition's, never both; a participant is a team or a player of the kind its competition has,
 * of one competition; a competition's odds name a participant of their event on a market of its
 * rules, and a matchup's name none. Each reads only the stored rows the dataset names.
 */

type OddsItem = NonNullable<Dataset['odds']>[number];

/** What the write needs of the checks: each participant's competition and name. */
export interface CompetitionFacts {
  /** The event of each participant the dataset or its odds name (dataset first, then stored). */
  eventOfParticipant: Map<number, number>;
  /** The name of each of the dataset's participants: its team's or player's. */
  participantNames: Map<number, string>;
}

export async function checkCompetitions(
  dataset: Dataset,
  repo: ImportRepository,
  options: { replace: boolean },
  known: KnownRecords,
  problems: Problems,
): Promise<CompetitionFacts> {
  const stored = <C extends string>(table: 'events' | 'competitions' | 'competition_participants' | 'teams' | 'players', ids: Iterable<number>, columns: readonly C[]) => {
    const wanted = [...new Set(ids)];
    return options.replace || wanted.length === 0 ? Promise.resolve([]) : repo.existing(table, wanted, columns);
  };
  const { events = [], competitions = [], competition_participants: participants = [], odds = [] } = dataset;
  await checkKinds(events, competitions, stored, problems);
  competitions.forEach((c, i) => {
    if (!known.sportOfLeague.has(c.league_id)) problems.add(`competitions[${i}].league_id`, 'reference', `names no league (id ${c.league_id}) in the dataset or the database`);
    if (Date.parse(c.end_time) < Date.parse(c.start_time)) problems.add(`competitions[${i}].end_time`, 'minimum', 'is before start_time');
  });

  const typeOf = new Map(competitions.map((c) => [c.id, c.participant_type as string]));
  const missing = participants.map((p) => p.competition_id).filter((id) => !typeOf.has(id));
  for (const row of await stored('competitions', missing, ['participant_type'])) typeOf.set(Number(row.id), String(row.participant_type));
  const names = await namesOf(dataset, stored);
  const participantNames = new Map<number, string>();
  participants.forEach((p, i) => {
    const field = `competition_participants[${i}]`;
    const type = typeOf.get(p.competition_id);
    if (type === undefined) problems.add(`${field}.competition_id`, 'reference', `names no competition (id ${p.competition_id}) in the dataset or the database`);
    const team = p.team_id ?? null;
    const player = p.player_id ?? null;
    if ((team === null) === (player === null)) problems.add(field, 'oneOf', 'names its team_id or its player_id, one of the two');
    else if (type !== undefined && (type === 'team') !== (team !== null)) problems.add(field, 'participant_type', `names a ${team === null ? 'player' : 'team'} in a competition of ${type}s`);
    const name = team !== null ? names.teams.get(team) : player !== null ? names.players.get(player) : undefined;
    if (team !== null && name === undefined) problems.add(`${field}.team_id`, 'reference', `names no team (id ${team}) in the dataset or the database`);
    if (player !== null && name === undefined) problems.add(`${field}.player_id`, 'reference', `names no player (id ${player}) in the dataset or the database`);
    if (name !== undefined) participantNames.set(p.id, name);
    const result = p.result ?? null;
    if (result !== null && (result.status === 'finished') !== (result.position !== undefined && result.position !== null)) {
      problems.add(`${field}.result.position`, 'finish', result.status === 'finished' ? 'is required for a participant that finished' : `is refused for a participant ${result.status.replace('_', '-')}`);
    }
  });

  const eventOfParticipant = new Map(participants.map((p) => [p.id, p.competition_id]));
  const storedOf = await stored('competition_participants', [...participants.map((p) => p.id), ...odds.flatMap(participantIdsOf)], ['event_id']);
  const movedFrom = new Map(storedOf.map((row) => [Number(row.id), Number(row.event_id)]));
  participants.forEach((p, i) => {
    const before = movedFrom.get(p.id);
    if (before !== undefined && before !== p.competition_id) problems.add(`competition_participants[${i}].competition_id`, 'same_competition', `participant ${p.id} is of competition ${before}`);
  });
  for (const [id, event] of movedFrom) if (!eventOfParticipant.has(id)) eventOfParticipant.set(id, event);
  odds.forEach((o, i) => checkOutrightOdds(o, `odds[${i}]`, known, eventOfParticipant, problems));
  return { eventOfParticipant, participantNames };
}

type Stored = <C extends string>(
  table: 'events' | 'competitions' | 'competition_participants' | 'teams' | 'players',
  ids: Iterable<number>,
  columns: readonly C[],
) => Promise<Array<Record<C | 'id', number | string | null>>>;

/** An id is a matchup's or a competition's: neither array may name one the other holds, here or stored. */
async function checkKinds(events: NonNullable<Dataset['events']>, competitions: NonNullable<Dataset['competitions']>, stored: Stored, problems: Problems): Promise<void> {
  // One read of the stored kinds of the ids the dataset sends: nothing when it sends no event.
  if (events.length === 0 && competitions.length === 0) return;
  const competitionIds = new Set(competitions.map((c) => c.id));
  const kinds = new Map((await stored('events', [...events.map((e) => e.id), ...competitionIds], ['kind'])).map((row) => [Number(row.id), String(row.kind)]));
  events.forEach((e, i) => {
    if (competitionIds.has(e.id) || kinds.get(e.id) === 'competition') problems.add(`events[${i}].id`, 'kind', `names competition ${e.id}: a competition is sent in competitions`);
  });
  competitions.forEach((c, i) => {
    const kind = kinds.get(c.id);
    if (kind !== undefined && kind !== 'competition') problems.add(`competitions[${i}].id`, 'kind', `names matchup event ${c.id}: a competition's id is its own`);
  });
}

/** The names of the teams and players the participants are: the dataset's, then the stored. */
async function namesOf(dataset: Dataset, stored: Stored): Promise<{ teams: Map<number, string>; players: Map<number, string> }> {
  const participants = dataset.competition_participants ?? [];
  const teams = new Map((dataset.teams ?? []).map((t) => [t.id, t.name]));
  const players = new Map((dataset.players ?? []).map((p) => [p.id, p.name]));
  const ids = (of: (p: (typeof participants)[number]) => number | null | undefined, own: Map<number, string>) =>
    participants.flatMap((p) => {
      const id = of(p);
      return id === null || id === undefined || own.has(id) ? [] : [id];
    });
  for (const row of await stored('teams', ids((p) => p.team_id, teams), ['name'])) teams.set(Number(row.id), String(row.name));
  for (const row of await stored('players', ids((p) => p.player_id, players), ['name'])) players.set(Number(row.id), String(row.name));
  return { teams, players };
}

/** The participants an odds row names: the one it backs and its rivals. */
function participantIdsOf(o: OddsItem): number[] {
  return [...(o.participant_id === null || o.participant_id === undefined ? [] : [o.participant_id]), ...(o.rival_participant_ids ?? [])];
}

/** A competition's row backs a participant of its event on a market of the competitions' rules; a matchup's names none. */
function checkOutrightOdds(o: OddsItem, field: string, known: KnownRecords, eventOfParticipant: ReadonlyMap<number, number>, problems: Problems): void {
  const kind = known.eventFacts.get(o.event_id)?.kind;
  const rule = known.marketRules.get(o.betting_market_id) ?? null;
  const participant = o.participant_id ?? null;
  const rivals = o.rival_participant_ids ?? [];
  const eachWay = o.each_way ?? null;
  if (kind === undefined) return;
  if (kind !== 'competition') {
    if (participant !== null || rivals.length > 0 || eachWay !== null) problems.add(`${field}.participant_id`, 'kind', `event ${o.event_id} is a matchup: its odds name no participant, rivals or each-way terms`);
    if (rule !== null && isOutrightRule(rule)) problems.add(`${field}.betting_market_id`, 'kind', `market ${o.betting_market_id} (settled by ${rule}) is a competition's: event ${o.event_id} is a matchup`);
    return;
  }
  if (rule !== null && !isOutrightRule(rule)) problems.add(`${field}.betting_market_id`, 'kind', `market ${o.betting_market_id} (settled by ${rule}) is a matchup's: event ${o.event_id} is a competition`);
  if (participant === null) {
    problems.add(`${field}.participant_id`, 'required', `is required: event ${o.event_id} is a competition`);
    return;
  }
  for (const [i, id] of [participant, ...rivals].entries()) {
    const at = i === 0 ? `${field}.participant_id` : `${field}.rival_participant_ids[${i - 1}]`;
    const event = eventOfParticipant.get(id);
    if (event === undefined) problems.add(at, 'reference', `names no participant (id ${id}) in the dataset or the database`);
    else if (event !== o.event_id) problems.add(at, 'same_competition', `names participant ${id} of competition ${event}, not of ${o.event_id}`);
  }
  if (rivals.includes(participant)) problems.add(`${field}.rival_participant_ids`, 'not', 'names the participant itself');
  if ((rule === 'participant_matchup') !== rivals.length > 0) {
    problems.add(`${field}.rival_participant_ids`, 'matchup', rule === 'participant_matchup' ? 'are required on a participant_matchup market' : 'are only for a participant_matchup market');
  }
  if (eachWay !== null && rule !== 'winner') problems.add(`${field}.each_way`, 'winner', 'each-way terms are for a winner market');
}
