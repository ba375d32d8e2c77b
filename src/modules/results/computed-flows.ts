import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { chunksOf } from '../../platform/chunks.js';
import { lockDataWrites } from '../../platform/db/locked-transaction.js';
import type { Schema } from '../../platform/db/schema.js';
import { utcDay } from '../../platform/time.js';
import { type ComputedFlow, createComputedFlowsRepository, type ComputedFlowsRepository } from './computed-flows.repository.js';

/**
 * Trends the results can prove (docs/data.md#computed-trends): a fact flow backing a team to win
 * (its side of a moneyline or 1X2 market) whose team has `total` graded games in that market
 * before the flow's event gets its hits, total and hit history from those games: a game is a hit
 * when the team's side won. The other flows keep what the import said.
 */

export interface FlowWarning {
  flow_id: number;
  message: string;
  imported: { hits: number; total: number };
  computed: { hits: number; total: number };
}

interface Game {
  start: number;
  opponent: number;
  won: boolean;
}

/**
 * Computes the flows the results can express, and says which of `imported` (the flows a dataset
 * just carried, by id) disagree with them: those flows, and the flows of the teams of `graded`
 * (events just graded), or every flow when `graded` is undefined. Run after the grading that fed
 * it: the reads a statement at a time, the updates in one transaction under the imports' lock.
 */
export async function computeFlows(
  deps: { db: Kysely<Schema>; changes: ChangeFeed },
  imported: ReadonlyMap<number, { hits: number; total: number }>,
  graded?: readonly number[],
): Promise<FlowWarning[]> {
  const { db, changes } = deps;
  const repository = createComputedFlowsRepository(db);
  const teams = graded === undefined ? undefined : await repository.teamsOf(graded);
  const flowIds = [...imported.keys()];
  if (teams !== undefined && teams.length === 0 && flowIds.length === 0) return [];
  const flows = await repository.winFlows(teams, flowIds);
  if (flows.length === 0) return [];
  const games = await gamesByTeam(repository, [...new Set(flows.map((f) => Number(f.betting_market_id)))], [...new Set(flows.map((f) => Number(f.focus_entity_id)))]);
  const updates: ComputedFlow[] = [];
  const warnings: FlowWarning[] = [];
  for (const flow of flows) {
    const id = Number(flow.id);
    const total = Number(flow.total);
    const before = Number(flow.start_time);
    const played = (games.get(`${Number(flow.betting_market_id)}:${Number(flow.focus_entity_id)}`) ?? []).filter((g) => g.start < before);
    // The last `total` games, and only when the results hold that many.
    if (played.length < total) continue;
    const last = played.slice(-total);
    const hits = last.filter((g) => g.won).length;
    const given = imported.get(id);
    const disagrees = given === undefined ? Number(flow.disagrees) === 1 : given.hits !== hits || given.total !== total;
    if (given !== undefined && disagrees) {
      warnings.push({
        flow_id: id,
        message: `flow ${id}: imported ${given.hits} of ${given.total}, but the graded results give ${hits} of ${total}; the computed figures are kept`,
        imported: given,
        computed: { hits, total },
      });
    }
    const history = JSON.stringify(last.map((g) => ({ date: utcDay(g.start), opponent_team_id: g.opponent, hit: g.won })));
    if (flow.source === 'computed' && flow.hit_history === history && (Number(flow.disagrees) === 1) === disagrees) continue;
    updates.push({ id, hits, total, history, disagrees });
  }
  if (updates.length > 0) {
    await db.transaction().execute(async (trx) => {
      await lockDataWrites(trx);
      const saved = createComputedFlowsRepository(trx);
      for (const u of updates) await saved.saveComputed(u);
      await changes.bump(trx, 'data');
    });
    await changes.changed('data');
  }
  return warnings;
}

/** Events per read of their grades: each read a short statement, the event loop free between them. */
const EVENTS_PER_READ = 200;

/**
 * Each team's graded games in each of `marketIds`, oldest first: per final event, the outcome of
 * the team's side (home or away) on the lowest odds row that has one; every book grades it alike.
 * Read a few events at a time, from the teams' final events.
 */
async function gamesByTeam(repository: ComputedFlowsRepository, marketIds: readonly number[], teamIds: readonly number[]): Promise<Map<string, Game[]>> {
  const teams = new Set(teamIds);
  const played = (await repository.finalEvents())
    .filter((e) => teams.has(Number(e.home_team_id)) || teams.has(Number(e.away_team_id)))
    .map((e) => ({ id: Number(e.id), start: Number(e.start_time), home: Number(e.home_team_id), away: Number(e.away_team_id) }))
    .sort((a, b) => a.start - b.start || a.id - b.id);
  const sides = new Map<number, { home?: boolean; away?: boolean }>();
  for (const events of chunksOf(played, EVENTS_PER_READ)) {
    const rows = await repository.sideGrades(events.map((e) => e.id), marketIds);
    for (const r of rows) {
      const key = Number(r.event_id) * 1_000_003 + Number(r.betting_market_id);
      const own = sides.get(key) ?? {};
      const side = r.position === 'home' ? 'home' : 'away';
      if (own[side] === undefined) own[side] = r.outcome === 'won';
      sides.set(key, own);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const games = new Map<string, Game[]>();
  for (const e of played) {
    for (const market of marketIds) {
      const own = sides.get(e.id * 1_000_003 + market);
      if (own === undefined) continue;
      for (const [team, opponent, won] of [[e.home, e.away, own.home], [e.away, e.home, own.away]] as const) {
        if (won === undefined || !teams.has(team)) continue;
        const key = `${market}:${team}`;
        const list = games.get(key) ?? [];
        list.push({ start: e.start, opponent, won });
        games.set(key, list);
      }
    }
  }
  return games;
}
