import type { Nullable } from 'kysely';
import type { Database } from '../../../platform/db/database.js';
import type { EventTeamColumns, MarketColumns } from '../../../platform/db/event-selection.js';
import type { EventsTable, FlowLegsTable, FlowsTable, LeaguesTable, TagTypesTable, TeamsTable } from '../../../platform/db/schema.js';
import type { DeepLinkTemplates } from '../../../shared/deep-links.js';
import type { ResolvedFlowFilters } from '../flow-filters.js';
import { flowIds } from './flow-ids.js';
import { flowHits, flowRows, flowTags, operatorLinkRows, parlayLegs, teamNames } from './flow-rows.js';
import { flowCounts, flowIdsOnSelections, leagueIdsWithFlows, leagues } from './lookups.js';

/** The trends' queries: the flows' ids by filter and by selection, the rows flow items are made of, the leagues with flows. */
export interface TrendsRepository {
  /** The ordered ids of the flows matching resolved filters, read off the event loop. */
  flowIds(filters: ResolvedFlowFilters): Promise<Float64Array>;
  /** Flows by id, each with its event and teams, its market and the name of the team or player it focuses on. */
  flowRows(ids: readonly number[]): Promise<FlowRow[]>;
  /** The tags of these flows, by flow then tag id. */
  flowTags(ids: readonly number[]): Promise<FlowTagRow[]>;
  /** The legs of these parlays, by parlay then leg position. */
  parlayLegs(parlayIds: readonly number[]): Promise<ParlayLegRow[]>;
  /** The odds rows of these selections at operators with a deep-link template, by odds id within each statement of selections. */
  operatorLinkRows(selections: readonly number[]): Promise<OperatorLinkRow[]>;
  /** Teams by id: their keys and names. */
  teamNames(ids: readonly number[]): Promise<TeamNameRow[]>;
  /** A flow's type, hits, total and stored hit history; undefined for an unknown id. */
  flowHits(id: number): Promise<FlowHitsRow | undefined>;
  /** The singles on these selections (plain ones left out when asked) and the parlays with a leg on one, by id. */
  flowIdsOnSelections(selections: readonly number[], withoutPlainSingles: boolean): Promise<number[]>;
  /** The leagues with at least one flow, of one sport when given, by id. */
  leagueIdsWithFlows(sportId: number | undefined): Promise<number[]>;
  /** Leagues by id. */
  leagues(ids: readonly number[]): Promise<LeagueRow[]>;
  /** The flows of these leagues, counted by league and flow type. */
  flowCounts(leagueIds: readonly number[]): Promise<FlowCountRow[]>;
}

/** A flow as its item is rendered from: its columns (all but implied_probability) and what it names, by name. */
export type FlowRow = Omit<FlowsTable, 'implied_probability'> &
  EventTeamColumns<Nullable<EventsTable>> &
  MarketColumns & { focus_team_name: string | null; focus_player_name: string | null };

export type FlowTagRow = Pick<FlowLegsTable, 'flow_id'> & Pick<TagTypesTable, 'id' | 'key' | 'name'>;

export type ParlayLegRow = Pick<FlowLegsTable, 'flow_id' | 'leg_id'>;

/** An operator's odds row of a selection, with what its deep links are made of. */
export interface OperatorLinkRow extends DeepLinkTemplates {
  id: number;
  selection_id: number | null;
  operator_id: number;
  key: string;
  operator_selection_id: string | null;
  event_id: number;
  betting_market_id: number;
  position: string;
  line: number | null;
}

export type TeamNameRow = Pick<TeamsTable, 'id' | 'key' | 'name'>;

export type FlowHitsRow = Pick<FlowsTable, 'flow_type' | 'hits' | 'total' | 'hit_history'>;

export type LeagueRow = LeaguesTable;

export interface FlowCountRow {
  league_id: number;
  flow_type: FlowsTable['flow_type'];
  flows: number | string;
}

export function createTrendsRepository(database: Database): TrendsRepository {
  const { db } = database;
  return {
    flowIds: (filters) => flowIds(database, filters),
    flowRows: (ids) => flowRows(db, ids),
    flowTags: (ids) => flowTags(db, ids),
    parlayLegs: (parlayIds) => parlayLegs(db, parlayIds),
    operatorLinkRows: (selections) => operatorLinkRows(db, selections),
    teamNames: (ids) => teamNames(db, ids),
    flowHits: (id) => flowHits(db, id),
    flowIdsOnSelections: (selections, withoutPlainSingles) => flowIdsOnSelections(db, selections, withoutPlainSingles),
    leagueIdsWithFlows: (sportId) => leagueIdsWithFlows(db, sportId),
    leagues: (ids) => leagues(db, ids),
    flowCounts: (leagueIds) => flowCounts(db, leagueIds),
  };
}
