import type { Kysely } from 'kysely';
import { withEventTeams, withMarketOf } from '../../../platform/db/event-selection.js';
import type { Schema } from '../../../platform/db/schema.js';
import type { FlowHitsRow, FlowRow, FlowTagRow, OperatorLinkRow, ParlayLegRow, TeamNameRow } from './index.js';

/** Rows per statement: far below either engine's bind-parameter ceiling. */
const CHUNK = 1_000;

/** Flows by id with their event and its teams, their market, and the name of the team or player they focus on. */
export function flowRows(db: Kysely<Schema>, ids: readonly number[]): Promise<FlowRow[]> {
  return db
    .selectFrom('flows as f')
    .leftJoin('events as e', 'e.id', 'f.event_id')
    .$call(withEventTeams)
    .$call(withMarketOf('f'))
    .leftJoin('teams as ft', (join) => join.onRef('ft.id', '=', 'f.focus_entity_id').on('f.focus_entity_type', '=', 'team'))
    .leftJoin('players as fp', (join) => join.onRef('fp.id', '=', 'f.focus_entity_id').on('f.focus_entity_type', '=', 'player'))
    .select([
      'f.id',
      'f.flow_type',
      'f.bet_type',
      'f.sport_id',
      'f.league_id',
      'f.event_id',
      'f.focus_entity_type',
      'f.focus_entity_id',
      'f.betting_market_id',
      'f.line',
      'f.split',
      'f.description',
      'f.hits',
      'f.total',
      'f.hit_rate_pct',
      'f.likelihood',
      'f.price_decimal',
      'f.updated_at',
      'f.selection_id',
      'f.fact_flow_type',
      'f.hit_history',
      'f.source',
      'f.disagrees',
      'ft.name as focus_team_name',
      'fp.name as focus_player_name',
    ])
    .where('f.id', 'in', ids)
    .execute();
}

export function flowTags(db: Kysely<Schema>, ids: readonly number[]): Promise<FlowTagRow[]> {
  return db
    .selectFrom('flow_tags as ft')
    .innerJoin('tag_types as t', 't.id', 'ft.tag_type_id')
    .select(['ft.flow_id', 't.id', 't.key', 't.name'])
    .where('ft.flow_id', 'in', ids)
    .orderBy('ft.flow_id')
    .orderBy('t.id')
    .execute();
}

export function parlayLegs(db: Kysely<Schema>, parlayIds: readonly number[]): Promise<ParlayLegRow[]> {
  return db.selectFrom('flow_legs').select(['flow_id', 'leg_id']).where('flow_id', 'in', parlayIds).orderBy('flow_id').orderBy('position').execute();
}

export async function operatorLinkRows(db: Kysely<Schema>, selections: readonly number[]): Promise<OperatorLinkRow[]> {
  const found: OperatorLinkRow[] = [];
  for (let start = 0; start < selections.length; start += CHUNK) {
    const rows = await db
      .selectFrom('odds as o')
      .innerJoin('operators as op', 'op.id', 'o.operator_id')
      .select([
        'o.id', 'o.selection_id', 'o.operator_id', 'op.key', 'o.operator_selection_id', 'o.event_id', 'o.betting_market_id', 'o.position', 'o.line',
        'op.bet_web_deep_link_template', 'op.bet_ios_deep_link_template', 'op.bet_android_deep_link_template',
      ])
      .where('o.selection_id', 'in', selections.slice(start, start + CHUNK))
      .where((eb) =>
        eb.or([eb('op.bet_web_deep_link_template', 'is not', null), eb('op.bet_ios_deep_link_template', 'is not', null), eb('op.bet_android_deep_link_template', 'is not', null)]),
      )
      .orderBy('o.id')
      .execute();
    for (const row of rows) found.push(row);
  }
  return found;
}

export function teamNames(db: Kysely<Schema>, ids: readonly number[]): Promise<TeamNameRow[]> {
  return db.selectFrom('teams').select(['id', 'key', 'name']).where('id', 'in', ids).execute();
}

export function flowHits(db: Kysely<Schema>, id: number): Promise<FlowHitsRow | undefined> {
  return db.selectFrom('flows').select(['flow_type', 'hits', 'total', 'hit_history']).where('id', '=', id).executeTakeFirst();
}
