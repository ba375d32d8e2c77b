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
 * Computes every flow the results can express, and says which of `imported` (the flows a dataset
 * just carried, by id) disagree with them. One transaction after the grading that fed it.
 */
export async function computeFlows(
  deps: { db: Kysely<Schema>; changes: ChangeFeed },
  imported: ReadonlyMap<number, { hits: number; total: number }>,
): Promise<FlowWarning[]> {
  const { db, changes } = deps;
  return db.transaction().execute(async (trx) => {
    await lockDataWrites(trx);
    const flows = await trx
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
      )
      .execute();
    if (flows.length === 0) return [];
    const games = await gamesByTeam(trx, [...new Set(flows.map((f) => Number(f.betting_market_id)))]);
    const warnings: FlowWarning[] = [];
    let changed = 0;
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
      await trx
        .updateTable('flows')
        .set({ hits, total, hit_rate_pct: (hits * 100) / total, hit_history: history, source: 'computed', disagrees: disagrees ? 1 : 0 })
        .where('id', '=', id)
        .execute();
      changed++;
    }
    if (changed > 0) await changes.bump(trx, 'data');
    return warnings;
  }).then(async (warnings) => {
    await changes.changed('data');
    return warnings;
  });
}

/**
 * Each team's graded games in each of `marketIds`, oldest first: per final event, the outcome of
 * the team's side (home or away) on the lowest odds row that has one; every book grades it alike.
 */
async function gamesByTeam(trx: Kysely<Schema>, marketIds: readonly number[]): Promise<Map<string, Game[]>> {
  const rows = await trx
    .selectFrom('odds_grades as g')
    .innerJoin('odds as o', 'o.id', 'g.odds_id')
    .innerJoin('events as e', 'e.id', 'g.event_id')
    .select(['g.outcome', 'o.position', 'o.betting_market_id', 'e.id', 'e.start_time', 'e.home_team_id', 'e.away_team_id'])
    .where('g.superseded_at', 'is', null)
    .where('g.outcome', 'is not', null)
    .where('e.status', '=', 'final')
    .where('o.betting_market_id', 'in', marketIds)
    .where('o.position', 'in', ['home', 'away'])
    .orderBy('e.start_time')
    .orderBy('e.id')
    .orderBy('o.id')
    .execute();
  const games = new Map<string, Game[]>();
  const seen = new Set<string>();
  for (const r of rows) {
    const home = r.position === 'home';
    const team = Number(home ? r.home_team_id : r.away_team_id);
    const key = `${Number(r.betting_market_id)}:${team}`;
    const once = `${key}:${Number(r.id)}`;
    if (seen.has(once)) continue;
    seen.add(once);
    const list = games.get(key) ?? [];
    list.push({ start: Number(r.start_time), opponent: Number(home ? r.away_team_id : r.home_team_id), won: r.outcome === 'won' });
    games.set(key, list);
  }
  return games;
}
