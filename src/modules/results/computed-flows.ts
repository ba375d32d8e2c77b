import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { lockDataWrites } from '../../platform/db/locked-transaction.js';
import type { Schema } from '../../platform/db/schema.js';
import { utcDay } from '../../platform/time.js';

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

/** The rules whose result is a team's win: the market a computed trend may be about. */
const WIN_RULES = ['moneyline', '1x2'];

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
  const teams = graded === undefined ? undefined : await teamsOf(db, graded);
  const flowIds = [...imported.keys()];
  if (teams !== undefined && teams.length === 0 && flowIds.length === 0) return [];
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
  const flows = await query.execute();
  if (flows.length === 0) return [];
  const games = await gamesByTeam(db, [...new Set(flows.map((f) => Number(f.betting_market_id)))], [...new Set(flows.map((f) => Number(f.focus_entity_id)))]);
  const updates: Array<{ id: number; hits: number; total: number; history: string; disagrees: boolean }> = [];
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
      for (const u of updates) {
        await trx
          .updateTable('flows')
          .set({ hits: u.hits, total: u.total, hit_rate_pct: (u.hits * 100) / u.total, hit_history: u.history, source: 'computed', disagrees: u.disagrees ? 1 : 0 })
          .where('id', '=', u.id)
          .execute();
      }
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
async function gamesByTeam(db: Kysely<Schema>, marketIds: readonly number[], teamIds: readonly number[]): Promise<Map<string, Game[]>> {
  const teams = new Set(teamIds);
  const played = (await db.selectFrom('events').select(['id', 'start_time', 'home_team_id', 'away_team_id']).where('status', '=', 'final').execute())
    .filter((e) => teams.has(Number(e.home_team_id)) || teams.has(Number(e.away_team_id)))
    .map((e) => ({ id: Number(e.id), start: Number(e.start_time), home: Number(e.home_team_id), away: Number(e.away_team_id) }))
    .sort((a, b) => a.start - b.start || a.id - b.id);
  const sides = new Map<number, { home?: boolean; away?: boolean }>();
  for (let start = 0; start < played.length; start += EVENTS_PER_READ) {
    const rows = await db
      .selectFrom('odds_grades as g')
      .innerJoin('odds as o', 'o.id', 'g.odds_id')
      .select(['g.event_id', 'g.outcome', 'o.position', 'o.betting_market_id'])
      .where('g.event_id', 'in', played.slice(start, start + EVENTS_PER_READ).map((e) => e.id))
      .where('g.superseded_at', 'is', null)
      .where('g.outcome', 'is not', null)
      .where('o.betting_market_id', 'in', marketIds)
      .where('o.position', 'in', ['home', 'away'])
      .orderBy('o.id')
      .execute();
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

/** The two teams of each of these events. */
async function teamsOf(db: Kysely<Schema>, eventIds: readonly number[]): Promise<number[]> {
  const teams = new Set<number>();
  for (let start = 0; start < eventIds.length; start += 10_000) {
    const rows = await db.selectFrom('events').select(['home_team_id', 'away_team_id']).where('id', 'in', eventIds.slice(start, start + 10_000)).execute();
    for (const row of rows) teams.add(Number(row.home_team_id)).add(Number(row.away_team_id));
  }
  return [...teams];
}
