import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { americanOf, impliedProbabilityOf } from '../../shared/odds-format.js';
import { iso, teamRef } from '../../shared/wire.js';
import type { FlowItem, FlowLegItem } from './trends.schemas.js';

/**
 * Renders flow items by primary key: a flow with its event, focus entity and market, and a
 * parlay with its legs as flow items of their own. Legs are single flows, rendered one level
 * deep (a leg's `legs` is always empty).
 */
export function createFlowItemLoader(db: Kysely<Schema>) {
  async function baseItems(ids: readonly number[]): Promise<Map<number, FlowLegItem>> {
    const items = new Map<number, FlowLegItem>();
    if (ids.length === 0) return items;
    const rows = await db
      .selectFrom('flows as f')
      .leftJoin('events as e', 'e.id', 'f.event_id')
      .leftJoin('teams as h', 'h.id', 'e.home_team_id')
      .leftJoin('teams as a', 'a.id', 'e.away_team_id')
      .leftJoin('betting_markets as m', 'm.id', 'f.betting_market_id')
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
        'e.start_time',
        'e.home_team_id',
        'e.away_team_id',
        'h.key as home_key',
        'h.name as home_name',
        'a.key as away_key',
        'a.name as away_name',
        'm.key as market_key',
        'm.name as market_name',
        'ft.name as focus_team_name',
        'fp.name as focus_player_name',
      ])
      .where('f.id', 'in', ids)
      .execute();
    for (const r of rows) {
      const id = Number(r.id);
      const eventId = Number(r.event_id);
      const home = teamRef(Number(r.home_team_id ?? 0), r.home_key, r.home_name);
      const away = teamRef(Number(r.away_team_id ?? 0), r.away_key, r.away_name);
      const focusName =
        r.focus_entity_type === 'team' ? r.focus_team_name : r.focus_entity_type === 'player' ? r.focus_player_name : `${home.name} vs ${away.name}`;
      const decimal = r.price_decimal === null ? null : Number(r.price_decimal);
      items.set(id, {
        id,
        flow_type: r.flow_type,
        bet_type: r.bet_type,
        sport_id: Number(r.sport_id),
        league_id: Number(r.league_id),
        event: { id: eventId, start_time: iso(Number(r.start_time ?? 0)), home_team: home, away_team: away },
        focus_entity: {
          type: r.focus_entity_type,
          id: Number(r.focus_entity_id ?? (r.focus_entity_type === 'event' ? eventId : 0)),
          name: focusName ?? '',
        },
        betting_market:
          r.betting_market_id === null ? null : { id: Number(r.betting_market_id), key: r.market_key ?? '', name: r.market_name ?? '' },
        event_betting_market_position_id: r.selection_id === null ? null : Number(r.selection_id),
        line: r.line === null ? null : Number(r.line),
        split: r.split,
        description: r.description,
        hit_rate: { hits: Number(r.hits), total: Number(r.total), pct: Math.round(Number(r.hit_rate_pct) * 100) / 100 },
        likelihood: r.likelihood,
        implied_probability: decimal === null ? null : impliedProbabilityOf(decimal),
        odds: decimal === null ? null : { american: americanOf(decimal), decimal },
        legs: [],
        updated_at: iso(Number(r.updated_at)),
      });
    }
    return items;
  }

  /** Full flow items by id; parlays carry their legs in leg order. */
  return async function flowItems(ids: readonly number[]): Promise<Map<number, FlowItem>> {
    const bases = await baseItems(ids);
    const parlayIds = [...bases.values()].filter((b) => b.bet_type === 'parlay').map((b) => b.id);
    const legsOf = new Map<number, number[]>();
    if (parlayIds.length > 0) {
      const links = await db
        .selectFrom('flow_legs')
        .select(['flow_id', 'leg_id'])
        .where('flow_id', 'in', parlayIds)
        .orderBy('flow_id')
        .orderBy('position')
        .execute();
      for (const link of links) {
        const flowId = Number(link.flow_id);
        legsOf.set(flowId, [...(legsOf.get(flowId) ?? []), Number(link.leg_id)]);
      }
    }
    const missingLegs = [...new Set([...legsOf.values()].flat())].filter((id) => !bases.has(id));
    const legBases = await baseItems(missingLegs);
    const items = new Map<number, FlowItem>();
    for (const base of bases.values()) {
      const legs: FlowLegItem[] = [];
      for (const legId of legsOf.get(base.id) ?? []) {
        const leg = bases.get(legId) ?? legBases.get(legId);
        if (leg) legs.push(leg);
      }
      items.set(base.id, { ...base, legs });
    }
    return items;
  };
}
