import { ApiError } from '../../platform/errors.js';
import { teamRef } from '../../shared/wire.js';
import type { FlowGraphData } from './lookups.schemas.js';
import type { TrendsRepository } from './repository/index.js';
import type { HitGame } from './trends.schemas.js';

/** One game of a stored hit history (import.service.ts writes them). */
interface StoredGame {
  date: string;
  opponent_team_id: number;
  hit: boolean;
}

/**
 * GET /v1/trends/flow-graph-data/{fact_flow_id}: the games behind a fact flow's hits / total, as
 * the import stored them (it checks that they agree: `total` games, `hits` hits). 404 for an id
 * that names no fact flow, and for a fact flow imported without its history.
 */
export function createFlowGraph(repository: Pick<TrendsRepository, 'flowHits' | 'teamNames'>): (flowId: number) => Promise<FlowGraphData> {
  return async function flowGraph(flowId: number): Promise<FlowGraphData> {
    const flow = await repository.flowHits(flowId);
    if (flow === undefined || flow.flow_type !== 'fact') throw new ApiError('NOT_FOUND', `no fact flow with id ${flowId}`);
    if (flow.hit_history === null) throw new ApiError('NOT_FOUND', `fact flow ${flowId} was imported without its hit history`);
    const games = (await gamesOf(repository, new Map([[flowId, flow.hit_history]]))).get(flowId) ?? [];
    return { flow_id: flowId, hits: Number(flow.hits), total: Number(flow.total), games };
  };
}

/** Stored hit histories (by flow id) as games, their opponents named with one query. */
export async function gamesOf(repository: Pick<TrendsRepository, 'teamNames'>, stored: ReadonlyMap<number, string>): Promise<Map<number, HitGame[]>> {
  const parsed = [...stored].map(([flowId, text]) => [flowId, JSON.parse(text) as StoredGame[]] as const);
  const opponentIds = [...new Set(parsed.flatMap(([, games]) => games.map((game) => game.opponent_team_id)))];
  const teams = opponentIds.length === 0 ? [] : await repository.teamNames(opponentIds);
  const teamById = new Map(teams.map((team) => [Number(team.id), team]));
  return new Map(
    parsed.map(([flowId, games]) => [
      flowId,
      games.map((game) => {
        const team = teamById.get(game.opponent_team_id);
        return { date: game.date, opponent: teamRef(game.opponent_team_id, team?.key ?? null, team?.name ?? null), hit: game.hit };
      }),
    ]),
  );
}
