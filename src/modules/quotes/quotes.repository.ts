import type { Kysely } from 'kysely';
import { type EventTeamColumns, type MarketColumns, withEventTeams, withMarketOf } from '../../platform/db/event-selection.js';
import type { CheckEndpointsTable, EventsTable, FlowsTable, OddsTable, OperatorsTable, Schema, SelectionsTable } from '../../platform/db/schema.js';

/** The quotes' queries: a client's check endpoint, and what a quote item is hydrated from. */
export interface QuotesRepository {
  /** A client's check endpoint as stored, or undefined when it has none. */
  checkEndpoint(clientId: string): Promise<CheckEndpointsTable | undefined>;
  /** Stores a client's check endpoint, or replaces its fields (keeping created_at) when it has one. */
  saveCheckEndpoint(clientId: string, fields: CheckEndpointFields, createdAt: number): Promise<void>;
  /** Forgets a client's check endpoint. */
  deleteCheckEndpoint(clientId: string): Promise<void>;
  /** Flows by id: type, bet type and own selection. */
  flows(ids: readonly number[]): Promise<QuotedFlowRow[]>;
  /** The selections of the legs of these parlays, by parlay. */
  legSelections(flowIds: readonly number[]): Promise<LegSelectionRow[]>;
  /** Selections by id, each with its event and teams, and its market. */
  selections(ids: readonly number[]): Promise<SelectionRow[]>;
  /** Every operator's current price of these selections, by operator id. */
  prices(selectionIds: readonly number[]): Promise<PriceRow[]>;
}

/** A check endpoint's columns besides its client and creation time. */
export type CheckEndpointFields = Omit<CheckEndpointsTable, 'client_id' | 'created_at'>;

export type QuotedFlowRow = Pick<FlowsTable, 'id' | 'flow_type' | 'bet_type' | 'selection_id'>;

export interface LegSelectionRow {
  flow_id: number;
  selection_id: number | null;
}

export type SelectionRow = Pick<SelectionsTable, 'id' | 'event_id' | 'betting_market_id' | 'position' | 'line' | 'period' | 'player'> &
  EventTeamColumns<EventsTable> &
  MarketColumns;

export type PriceRow = Pick<OddsTable, 'selection_id' | 'price_decimal' | 'status' | 'updated_at'> & {
  operator_id: OperatorsTable['id'];
  operator_key: OperatorsTable['key'];
  operator_name: OperatorsTable['name'];
};

export function createQuotesRepository(db: Kysely<Schema>): QuotesRepository {
  return {
    checkEndpoint: (clientId) => db.selectFrom('check_endpoints').selectAll().where('client_id', '=', clientId).executeTakeFirst(),

    async saveCheckEndpoint(clientId, fields, createdAt) {
      await db
        .insertInto('check_endpoints')
        .values({ client_id: clientId, created_at: createdAt, ...fields })
        .onConflict((oc) => oc.column('client_id').doUpdateSet(fields))
        .execute();
    },

    async deleteCheckEndpoint(clientId) {
      await db.deleteFrom('check_endpoints').where('client_id', '=', clientId).execute();
    },

    flows: (ids) => db.selectFrom('flows').select(['id', 'flow_type', 'bet_type', 'selection_id']).where('id', 'in', ids).execute(),

    legSelections: (flowIds) =>
      db.selectFrom('flow_legs as l').innerJoin('flows as leg', 'leg.id', 'l.leg_id').select(['l.flow_id', 'leg.selection_id']).where('l.flow_id', 'in', flowIds).execute(),

    selections: (ids) =>
      db
        .selectFrom('selections as s')
        .innerJoin('events as e', 'e.id', 's.event_id')
        .$call(withEventTeams)
        .$call(withMarketOf('s'))
        .select(['s.id', 's.event_id', 's.betting_market_id', 's.position', 's.line', 's.period', 's.player'])
        .where('s.id', 'in', ids)
        .execute(),

    prices: (selectionIds) =>
      db
        .selectFrom('odds as o')
        .innerJoin('operators as op', 'op.id', 'o.operator_id')
        .select(['o.selection_id', 'o.price_decimal', 'o.status', 'o.updated_at', 'op.id as operator_id', 'op.key as operator_key', 'op.name as operator_name'])
        .where('o.selection_id', 'in', selectionIds)
        .orderBy('o.operator_id')
        .execute(),
  };
}
