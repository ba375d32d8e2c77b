import type { BetType, FlowType } from '../../platform/db/schema.js';
import type { FlowVocabulary } from '../auth/index.js';
import type { FlowItem, FlowLegItem, OddittFlowType } from './trends.schemas.js';

/**
 * Odditt's name of a flow that is not a parlay: a fact or fun flow's own, and for a plain flow the
 * one name Odditt has for one, `plain_flow_parlay` (Odditt's plain flows exist only in parlays).
 * Also what a value of ours asked for (a quote's `fact`) is named in Odditt's vocabulary.
 */
export const ODDITT_NAME: Readonly<Record<FlowType, OddittFlowType>> = { fact: 'fact_flow', fun: 'fun_flow', plain: 'plain_flow_parlay' };
const ODDITT_PARLAY_NAME: Readonly<Record<FlowType, OddittFlowType>> = { fact: 'fact_flow_parlay', fun: 'fun_flow_parlay', plain: 'plain_flow_parlay' };

/** Odditt's name of a flow of this type and bet type. */
export function oddittFlowType(type: FlowType, betType: BetType): OddittFlowType {
  return (betType === 'parlay' ? ODDITT_PARLAY_NAME : ODDITT_NAME)[type];
}

/**
 * Whether a flow is answered on its own in this vocabulary. Odditt has no plain single: its lists
 * answer plain flows only as parlays, so under `odditt` a plain single is listed by none (it still
 * shows as a parlay's leg).
 */
export function answeredIn(vocabulary: FlowVocabulary, flow: { flow_type: string; bet_type: string }): boolean {
  return vocabulary === 'ours' || flow.flow_type !== 'plain' || flow.bet_type === 'parlay';
}

/** A flow item and its legs with `flow_type` in the vocabulary; as stored (ours) otherwise. */
export function inVocabulary(flow: FlowItem, vocabulary: FlowVocabulary): FlowItem {
  if (vocabulary === 'ours') return flow;
  const named = <T extends FlowLegItem | FlowItem>(item: T): T =>
    isOurs(item.flow_type) ? { ...item, flow_type: oddittFlowType(item.flow_type, item.bet_type) } : item;
  return { ...named(flow), legs: flow.legs.map(named) };
}

const isOurs = (value: string): value is FlowType => value === 'fact' || value === 'fun' || value === 'plain';
