import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

/** The grader's reads of a batch's competitions (docs/data.md#competitions): their state, their participants' finishes, their odds. */
export interface OutrightGradingRepository {
  /** The competitions among `eventIds`, with their status, sport and league (what their result.graded webhooks are filtered by). */
  competitions(eventIds: readonly number[]): Promise<Array<{ id: number; status: string; sport_id: number; league_id: number }>>;
  /** The finishing results of their participants (null status: none yet). */
  finishes(eventIds: readonly number[]): Promise<Array<{ id: number; event_id: number; finish_position: number | null; finish_status: string | null }>>;
  /** Their odds rows with the participant each backs, its rivals, the each-way terms and the market's rule. */
  odds(eventIds: readonly number[]): Promise<OutrightOddsRow[]>;
}

export interface OutrightOddsRow {
  id: number;
  event_id: number;
  price_decimal: number;
  settlement_rule: string | null;
  participant_id: number;
  rival_ids: string | null;
  each_way_fraction: number | null;
  each_way_places: number | null;
}

export function createOutrightGradingRepository(db: Kysely<Schema>): OutrightGradingRepository {
  return {
    competitions: (eventIds) => db.selectFrom('events').select(['id', 'status', 'sport_id', 'league_id']).where('id', 'in', eventIds).where('kind', '=', 'competition').execute(),
    finishes: (eventIds) =>
      db.selectFrom('competition_participants').select(['id', 'event_id', 'finish_position', 'finish_status']).where('event_id', 'in', eventIds).execute(),
    odds: (eventIds) =>
      db
        .selectFrom('odds as o')
        .innerJoin('odds_outrights as x', 'x.odds_id', 'o.id')
        .leftJoin('betting_markets as m', 'm.id', 'o.betting_market_id')
        .select(['o.id', 'o.event_id', 'o.price_decimal', 'm.settlement_rule', 'x.participant_id', 'x.rival_ids', 'x.each_way_fraction', 'x.each_way_places'])
        .where('o.event_id', 'in', eventIds)
        .orderBy('o.id')
        .execute(),
  };
}
