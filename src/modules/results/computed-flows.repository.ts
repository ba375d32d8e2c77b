import type { Kysely, Selectable } from 'kysely';
import { chunksOf } from '../../platform/chunks.js';
import type { FlowsTable, Schema } from '../../platform/db/schema.js';

/** The queries of the computed trends: the flows the results can prove, the games that prove them, and their update. */
export interface ComputedFlowsRepository {
  /**
   * The fact flows backing a team to win (its side of a market settled as a team's win): those of
   * `teams` or of `flowIds` when `teams` is given, else all; with their event's start.
   */
  winFlows(teams: readonly number[] | undefined, flowIds: readonly number[]): Promise<WinFlowRow[]>;
  /** The two teams of each of these events. */
  teamsOf(eventIds: readonly number[]): Promise<number[]>;
  /** Every final event with its start and teams. */
  finalEvents(): Promise<Array<{ id: number; start_time: number; home_team_id: number; away_team_id: number }>>;
  /** The current home and away grades with an outcome of these events in `marketIds`, by odds row. */
  sideGrades(eventIds: readonly number[], marketIds: readonly number[]): Promise<SideGradeRow[]>;
  /** Writes a flow's computed figures and hit history. */
  saveComputed(flow: ComputedFlow): Promise<void>;
}

export type WinFlowRow = Pick<Selectable<FlowsTable>, 'id' | 'focus_entity_id' | 'betting_market_id' | 'total' | 'hits' | 'source' | 'disagrees' | 'hit_history'> & {
  start_time: number;
};

export interface SideGradeRow {
  event_id: number;
  outcome: string | null;
  position: string;
  betting_market_id: number;
}

/** A flow's figures as the results give them. */
export interface ComputedFlow {
  id: number;
  hits: number;
  total: number;
  /** The hit history as stored: JSON. */
  history: string;
  disagrees: boolean;
}

/** The rules whose result is a team's win: the market a computed trend may be about. */
const WIN_RULES = ['moneyline', '1x2'];

/** Over `db` or a transaction: the updates go in one transaction under the imports' lock. */
export function createComputedFlowsRepository(db: Kysely<Schema>): ComputedFlowsRepository {
  return {
    winFlows: (teams, flowIds) => winFlows(db, teams, flowIds),
    teamsOf: (eventIds) => teamsOf(db, eventIds),
    finalEvents: () => db.selectFrom('events').select(['id', 'start_time', 'home_team_id', 'away_team_id']).where('status', '=', 'final').execute(),
    sideGrades: (eventIds, marketIds) =>
      db
        .selectFrom('odds_grades as g')
        .innerJoin('odds as o', 'o.id', 'g.odds_id')
        .select(['g.event_id', 'g.outcome', 'o.position', 'o.betting_market_id'])
        .where('g.event_id', 'in', eventIds)
        .where('g.superseded_at', 'is', null)
        .where('g.outcome', 'is not', null)
        .where('o.betting_market_id', 'in', marketIds)
        .where('o.position', 'in', ['home', 'away'])
        .orderBy('o.id')
        .execute(),
    saveComputed: async (u) => {
      await db
        .updateTable('flows')
        .set({ hits: u.hits, total: u.total, hit_rate_pct: (u.hits * 100) / u.total, hit_history: u.history, source: 'computed', disagrees: u.disagrees ? 1 : 0 })
        .where('id', '=', u.id)
        .execute();
    },
  };
}

function winFlows(db: Kysely<Schema>, teams: readonly number[] | undefined, flowIds: readonly number[]): Promise<WinFlowRow[]> {
  let query = db
    .selectFrom('flows as f')
    .innerJoin('events as e', 'e.id', 'f.event_id')
    .innerJoin('betting_markets as m', 'm.id', 'f.betting_market_id')
    .innerJoin('selections as s', 's.id', 'f.selection_id')
    .select(['f.id', 'f.focus_entity_id', 'f.betting_market_id', 'f.total', 'f.hits', 'f.source', 'f.disagrees', 'f.hit_history', 'e.start_time'])
    .where('f.flow_type', '=', 'fact')
    .where('f.bet_type', '=', 'single')
    .where('f.focus_entity_type', '=', 'team')
    .where('m.settlement_rule', 'in', WIN_RULES)
    .where((eb) =>
      eb.or([
        eb.and([eb('s.position', '=', 'home'), eb('f.focus_entity_id', '=', eb.ref('e.home_team_id'))]),
        eb.and([eb('s.position', '=', 'away'), eb('f.focus_entity_id', '=', eb.ref('e.away_team_id'))]),
      ]),
    );
  if (teams !== undefined) {
    query = query.where((eb) => eb.or([...(teams.length > 0 ? [eb('f.focus_entity_id', 'in', teams)] : []), ...(flowIds.length > 0 ? [eb('f.id', 'in', flowIds)] : [])]));
  }
  return query.execute();
}

async function teamsOf(db: Kysely<Schema>, eventIds: readonly number[]): Promise<number[]> {
  const teams = new Set<number>();
  for (const chunk of chunksOf(eventIds, 10_000)) {
    const rows = await db.selectFrom('events').select(['home_team_id', 'away_team_id']).where('id', 'in', chunk).execute();
    for (const row of rows) teams.add(Number(row.home_team_id)).add(Number(row.away_team_id));
  }
  return [...teams];
}
