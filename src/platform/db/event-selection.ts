import type { Nullable, SelectQueryBuilder, SelectType } from 'kysely';
import type { BettingMarketsTable, Schema, TeamsTable } from './schema.js';

/**
 * An event with its teams, and a bet's market, as every answer that names them shows them: the one
 * join behind flows, quotes, events and odds. Each is added to a query with `$call`:
 *
 *   db.selectFrom('flows as f').leftJoin('events as e', 'e.id', 'f.event_id').$call(withEventTeams).$call(withMarketOf('f'))
 *
 * Kysely types a join only on a query whose tables it knows, not on one whose tables are a type
 * parameter; so each join is written against the least a caller must have (an event as `e`, a row
 * with a `betting_market_id`), and its signature states what it adds to the caller's query.
 */

/** The event's columns the join reads and selects: a left-joined event has them all nullable. */
interface EventColumns {
  start_time: number | null;
  home_team_id: number | null;
  away_team_id: number | null;
}

/** The teams joined: home as `h`, away as `a`; either may be missing. */
interface TeamTables {
  h: Nullable<TeamsTable>;
  a: Nullable<TeamsTable>;
}

/** What withEventTeams selects: the event's start and team ids as the query has them, each team's key and name. */
export type EventTeamColumns<E extends EventColumns> = { [K in keyof EventColumns]: SelectType<E[K]> } & {
  home_key: string | null;
  home_name: string | null;
  away_key: string | null;
  away_name: string | null;
};

/** The event `e` of a query with its home and away teams: start time, team ids, and each team's key and name. */
export function withEventTeams<DB extends Schema & { e: EventColumns }, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB & TeamTables, TB | keyof TeamTables, O & EventTeamColumns<DB['e']>> {
  const known = query as unknown as SelectQueryBuilder<Schema & { e: EventColumns }, 'e', object>;
  const joined = known
    .leftJoin('teams as h', 'h.id', 'e.home_team_id')
    .leftJoin('teams as a', 'a.id', 'e.away_team_id')
    .select(['e.start_time', 'e.home_team_id', 'e.away_team_id', 'h.key as home_key', 'h.name as home_name', 'a.key as away_key', 'a.name as away_name']);
  return joined as unknown as SelectQueryBuilder<DB & TeamTables, TB | keyof TeamTables, O & EventTeamColumns<DB['e']>>;
}

/** What withMarketOf selects: the market's key and name, null when the row names none. */
export interface MarketColumns {
  market_key: string | null;
  market_name: string | null;
}

/** The market (as `m`) of the rows of `row` (an alias with a `betting_market_id`): its key and name. */
export function withMarketOf<A extends string>(row: A) {
  return <DB extends Schema & Record<A, { betting_market_id: number | null }>, TB extends keyof DB, O>(
    query: SelectQueryBuilder<DB, TB, O>,
  ): SelectQueryBuilder<DB & { m: Nullable<BettingMarketsTable> }, TB | 'm', O & MarketColumns> => {
    const known = query as unknown as SelectQueryBuilder<Schema & { r: { betting_market_id: number | null } }, 'r', object>;
    const joined = known
      .leftJoin('betting_markets as m', 'm.id', `${row as 'r'}.betting_market_id`)
      .select(['m.key as market_key', 'm.name as market_name']);
    return joined as unknown as SelectQueryBuilder<DB & { m: Nullable<BettingMarketsTable> }, TB | 'm', O & MarketColumns>;
  };
}
