import type { Kysely } from 'kysely';
import type { FlowType, Schema } from '../../platform/db/schema.js';
import { americanOf } from '../../shared/odds-format.js';
import { iso, teamRef } from '../../shared/wire.js';
import type { PositionMap, QuoteItem, QuotePayload } from './quotes.schemas.js';
import { createQuotesRepository, type QuotesRepository } from './quotes.repository.js';

/** One quote item made ready to send, or why it cannot be (its item answers 404). */
export type Hydrated = { readonly payload: QuotePayload; readonly problem?: undefined } | { readonly payload?: undefined; readonly problem: string };

/** Turns quote items into what a check endpoint receives, in input order. */
export type Hydrator = (items: readonly QuoteItem[]) => Promise<Hydrated[]>;

/** Odditt's flow type names and ours, as the flow's type and whether it must be a parlay. */
const FLOW_TYPES: Readonly<Record<QuoteItem['flow_type'], { type: FlowType; parlay?: boolean }>> = {
  fact: { type: 'fact' },
  fun: { type: 'fun' },
  plain: { type: 'plain' },
  fact_flow: { type: 'fact' },
  fun_flow: { type: 'fun' },
  fact_flow_parlay: { type: 'fact', parlay: true },
  fun_flow_parlay: { type: 'fun', parlay: true },
  plain_flow_parlay: { type: 'plain', parlay: true },
};

/**
 * Turns quote items into the payloads a check endpoint receives: each selection id asked, if it is
 * one of the flow's (its own for a single, its legs' for a parlay), becomes the selection's map —
 * event, market, position, line, period, player and our current prices. Three queries for the
 * whole batch, whatever its size.
 */
export function createHydrator(db: Kysely<Schema>): Hydrator {
  const repository = createQuotesRepository(db);
  return async function hydrate(items: readonly QuoteItem[]): Promise<Hydrated[]> {
    const flowIds = [...new Set(items.map((item) => item.flow_id))];
    const flows = await repository.flows(flowIds);
    const legs = await repository.legSelections(flowIds);
    const selectionsOf = new Map<number, Set<number>>();
    const add = (flowId: number, selectionId: number | null) => {
      if (selectionId === null) return;
      const set = selectionsOf.get(flowId) ?? new Set<number>();
      set.add(Number(selectionId));
      selectionsOf.set(flowId, set);
    };
    for (const flow of flows) add(Number(flow.id), flow.selection_id);
    for (const leg of legs) add(Number(leg.flow_id), leg.selection_id);
    const flowById = new Map(flows.map((f) => [Number(f.id), f] as const));

    const maps = await positionMaps(repository, [...new Set(items.flatMap((item) => item.event_betting_market_position_ids))]);
    return items.map((item): Hydrated => {
      const flow = flowById.get(item.flow_id);
      const wanted = FLOW_TYPES[item.flow_type];
      if (flow === undefined || flow.flow_type !== wanted.type || (wanted.parlay === true && flow.bet_type !== 'parlay')) {
        return { problem: `no ${wanted.type} flow${wanted.parlay === true ? ' parlay' : ''} has id ${item.flow_id}` };
      }
      const own = selectionsOf.get(item.flow_id) ?? new Set<number>();
      const stranger = item.event_betting_market_position_ids.find((id) => !own.has(id) || !maps.has(id));
      if (stranger !== undefined) return { problem: `event_betting_market_position_id ${stranger} is not a selection of flow ${item.flow_id}` };
      const payload: QuotePayload = {
        flow_id: item.flow_id,
        flow_type: item.flow_type,
        country: item.country.toUpperCase(),
        ...(item.region === undefined ? {} : { region: item.region.toUpperCase() }),
        event_betting_market_position_maps: item.event_betting_market_position_ids.flatMap((id) => maps.get(id) ?? []),
      };
      return { payload };
    });
  };
}

/** The selections asked for as check endpoints receive them, each with our current prices. */
async function positionMaps(repository: QuotesRepository, ids: readonly number[]): Promise<Map<number, PositionMap>> {
  const maps = new Map<number, PositionMap>();
  if (ids.length === 0) return maps;
  const selections = await repository.selections(ids);
  const prices = await repository.prices(ids);
  for (const s of selections) {
    maps.set(Number(s.id), {
      event_betting_market_position_id: Number(s.id),
      event: {
        id: Number(s.event_id),
        start_time: iso(Number(s.start_time)),
        home_team: teamRef(Number(s.home_team_id ?? 0), s.home_key, s.home_name),
        away_team: teamRef(Number(s.away_team_id ?? 0), s.away_key, s.away_name),
      },
      betting_market: { id: Number(s.betting_market_id), key: s.market_key ?? '', name: s.market_name ?? '' },
      position: s.position,
      line: s.line === null ? null : Number(s.line),
      period: s.period === '' ? null : s.period,
      player: s.player === '' ? null : s.player,
      prices: [],
    });
  }
  for (const p of prices) {
    const map = maps.get(Number(p.selection_id));
    const decimal = Number(p.price_decimal);
    map?.prices.push({
      operator: { id: Number(p.operator_id), key: p.operator_key, name: p.operator_name },
      decimal,
      american: americanOf(decimal),
      status: p.status,
      updated_at: iso(Number(p.updated_at)),
    });
  }
  return maps;
}
