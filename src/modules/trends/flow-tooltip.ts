import { type Static, Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { Id, MAX_ID, SelectionId } from '../../shared/wire.js';
import type { FlowVocabulary } from '../auth/index.js';
import { oddittFlowType } from './flow-vocabulary.js';
import { type FlowItem, type FlowLegItem, HitRate, ODDITT_FLOW_TYPES } from './trends.schemas.js';

/** The flow types a tooltip is for, as Odditt names them in the path. */
export const TOOLTIP_FLOW_TYPES = ['fact', 'fun'] as const;

export const FlowTooltipParams = Type.Object(
  {
    flow_type: Type.Enum(TOOLTIP_FLOW_TYPES, { description: '`fact` or `fun`: the type of the flow (another type, or a flow of the other type, is 404).', example: 'fact' }),
    // Flow 1 is a fact flow in every demo dataset (the example of /docs).
    flow_id: Type.Integer({ minimum: 1, maximum: MAX_ID, example: 1, description: 'The flow id.' }),
  },
  { additionalProperties: false },
);

const Odds = Type.Union(
  [
    Type.Object(
      {
        american: Type.Integer({ description: 'American odds.' }),
        decimal: Type.Number({ description: 'Decimal odds.' }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'The price, as the flow item shows it in `odds`; null without one.' },
);

const TooltipLeg = Type.Object(
  {
    flow_id: Id('The leg, a single flow.'),
    sentence: Type.String({ description: "The leg's trend in words." }),
    event_betting_market_position_id: SelectionId('The selection the leg bets on'),
    betting_market: Type.Union([Type.String(), Type.Null()], { description: "The leg's market by name." }),
    line: Type.Union([Type.Number(), Type.Null()], { description: "The leg's line; null without one." }),
    split: Type.Union([Type.Enum(['over', 'under']), Type.Null()], { description: "The leg's side of the line; null without one." }),
    odds: Odds,
  },
  { additionalProperties: false },
);

export const FlowTooltip = Type.Object(
  {
    flow_id: Id('The flow.'),
    flow_type: Type.Enum([...TOOLTIP_FLOW_TYPES, ...ODDITT_FLOW_TYPES], {
      description: "As asked; for an account whose `flow_vocabulary` is `odditt`, Odditt's name of the flow (`fact_flow`, `fun_flow_parlay`…).",
    }),
    bet_type: Type.Enum(['single', 'parlay'], { description: 'A single bet, or a parlay of `legs`.' }),
    sentence: Type.String({ description: "The flow's trend in words (the item's `description`)." }),
    hit_rate: HitRate,
    sample_size: Type.Integer({ minimum: 0, description: 'The sample, `hit_rate.total`.' }),
    odds: Odds,
    implied_probability: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: '1/d of the price, to 4 decimals; null without a price.' }),
    legs: Type.Array(TooltipLeg, { description: "A parlay's legs, in order; empty for a single." }),
  },
  { title: 'FlowTooltip', additionalProperties: false, description: 'The short payload a flow tooltip shows.' },
);
export type FlowTooltip = Static<typeof FlowTooltip>;
export type FlowTooltipParams = Static<typeof FlowTooltipParams>;

function legOf(leg: FlowLegItem): FlowTooltip['legs'][number] {
  return {
    flow_id: leg.id,
    sentence: leg.description,
    event_betting_market_position_id: leg.event_betting_market_position_id,
    betting_market: leg.betting_market?.name ?? null,
    line: leg.line,
    split: leg.split,
    odds: leg.odds,
  };
}

/**
 * GET /v1/trends/flow-tooltip/{flow_type}/{flow_id}: one flow in the few fields a tooltip shows,
 * read from the flow item so that the two never disagree. 404 for an id that names no flow of the type.
 * In Odditt's vocabulary, `flow_type` is the flow's name in it, as the flow item's is.
 */
export function createFlowTooltip(
  flowItems: (ids: readonly number[]) => Promise<ReadonlyMap<number, FlowItem>>,
): (params: FlowTooltipParams, vocabulary: FlowVocabulary) => Promise<FlowTooltip> {
  return async function flowTooltip({ flow_type, flow_id }: FlowTooltipParams, vocabulary: FlowVocabulary): Promise<FlowTooltip> {
    const flow = (await flowItems([flow_id])).get(flow_id);
    if (flow === undefined || flow.flow_type !== flow_type) throw new ApiError('NOT_FOUND', `no ${flow_type} flow with id ${flow_id}`);
    return {
      flow_id,
      flow_type: vocabulary === 'odditt' ? oddittFlowType(flow_type, flow.bet_type) : flow_type,
      bet_type: flow.bet_type,
      sentence: flow.description,
      hit_rate: flow.hit_rate,
      sample_size: flow.hit_rate.total,
      odds: flow.odds,
      implied_probability: flow.implied_probability,
      legs: flow.legs.map(legOf),
    };
  };
}
