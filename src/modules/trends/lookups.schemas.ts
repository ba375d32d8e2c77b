import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { Id, MAX_FILTER_ITEMS, MAX_ID } from '../../shared/wire.js';
import { League } from '../references/index.js';
import { IgnoredPresentation, OddsFormatField, ProductModeField } from './flow-price.js';
import { FLOW_TYPES, FlowItem, HitGame, ODDITT_FLOW_TYPES } from './trends.schemas.js';

/**
 * The trend endpoints beside the flow lists (decisions 0114–0116): flows by id, the leagues that have
 * flows, and the hit history behind a fact flow's hit rate.
 */

// ---- POST /v1/trends/flows-by-id ----
export const FlowsByIdBody = Type.Object(
  {
    flow_ids: Type.Array(Id('A flow id.'), {
      minItems: 1,
      maxItems: MAX_FILTER_ITEMS,
      description: `The flows to get, 1 to ${MAX_FILTER_ITEMS} ids. The page lists the flows found in this order; a repeated id counts once.`,
    }),
    flow_type: Type.Optional(
      Type.Enum([...FLOW_TYPES, ...ODDITT_FLOW_TYPES], {
        description:
          'Only flows of this type: an id of a flow of another type is reported in `missing_ids`. Default: any type. Odditt\'s values are read as ' +
          'ours: `fact_flow`, `fun_flow` as `fact`, `fun`; `fact_flow_parlay`, `fun_flow_parlay`, `plain_flow_parlay` as that type and a parlay.',
      }),
    ),
    fact_flow_type: Type.Optional(
      Type.Enum(['base', 'expanded'], {
        description:
          "Only flows of this sub-type (the item field `fact_flow_type`; fun and plain flows are `base`); the others are in `missing_ids`. Default: every sub-type (ids name the flows wanted).",
      }),
    ),
    use_cartoon_images: IgnoredPresentation('`use_cartoon_images`'),
  },
  // Flows 3, 1 and 2 exist in every demo dataset.
  { title: 'FlowsByIdBody', additionalProperties: false, examples: [{ flow_ids: [3, 1, 2] }] },
);
export type FlowsByIdBody = Static<typeof FlowsByIdBody>;


const FlowsPageFields = PageOf(FlowItem, 'FlowsByIdPage').properties;

export const FlowsByIdPage = Type.Object(
  {
    ...FlowsPageFields,
    missing_ids: Type.Array(Id('A flow id asked for.'), {
      description: 'The ids asked for that name no flow (of `flow_type`, when given), in the order asked. Empty when every flow was found.',
    }),
  },
  {
    title: 'FlowsByIdPage',
    additionalProperties: false,
    description: 'One page holding every flow found: `page` 1, `page_size` the number of distinct ids asked, `total_count` the flows found.',
  },
);
export type FlowsByIdPage = Static<typeof FlowsByIdPage>;

// ---- POST /v1/trends/by-betting-market-position ----

/** The flows on selections, at most this many in the answer (the first, by id). */
export const BY_SELECTION_PAGE_SIZE = 500;

export const FlowsBySelectionBody = Type.Object(
  {
    event_betting_market_position_ids: Type.Array(Id('A selection id: `event_betting_market_position_id` of an odds item or a flow.'), {
      minItems: 1,
      maxItems: MAX_FILTER_ITEMS,
      description: `The selections, 1 to ${MAX_FILTER_ITEMS} ids; a repeated id counts once, an id that names no selection matches nothing.`,
    }),
    odds_format: OddsFormatField,
    product_mode: ProductModeField,
    use_cartoon_images: IgnoredPresentation('`use_cartoon_images`'),
  },
  // One selection in fifty of the demo's first 5,000, spread over its events: at any hour and
  // scale some are of events still to come (a started event has no flows) that flows bet on.
  {
    title: 'FlowsBySelectionBody',
    additionalProperties: false,
    examples: [{ event_betting_market_position_ids: Array.from({ length: MAX_FILTER_ITEMS }, (_, i) => 1 + 50 * i), odds_format: 'american' }],
  },
);
export type FlowsBySelectionBody = Static<typeof FlowsBySelectionBody>;

export const FlowsBySelectionPage = PageOf(FlowItem, 'FlowsBySelectionPage');

// ---- GET /v1/trends/leagues-with-available-flows ----

export const LEAGUES_WITH_FLOWS_MAX_PAGE_SIZE = 100;

const count = (description: string) => Type.Integer({ minimum: 0, description });

/** A league as GET /v1/references/leagues shows it, with its flows counted. */
export const LeagueWithFlows = Type.Object(
  {
    ...League.properties,
    flow_counts: Type.Object(
      {
        fact: count('Fact flows of the league.'),
        fun: count('Fun flows of the league.'),
        plain: count('Plain flows of the league.'),
        total: count('Flows of every type: fact + fun + plain.'),
      },
      { additionalProperties: false, description: 'How many flows the league has, by type (singles and parlays alike, as the flow lists count them).' },
    ),
  },
  { title: 'LeagueWithFlows', additionalProperties: false },
);
export type LeagueWithFlowsItem = Static<typeof LeagueWithFlows>;
export const LeaguesWithFlowsPage = PageOf(LeagueWithFlows, 'LeaguesWithFlowsPage');

export const LeaguesWithFlowsQuery = Type.Object(
  {
    ...pagingProperties(LEAGUES_WITH_FLOWS_MAX_PAGE_SIZE),
    sport_id: Type.Optional(Id('Only leagues of this sport. Wins over sport_key.')),
    sport_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only leagues of the sport with this key.' })),
  },
  { title: 'LeaguesWithFlowsQuery', additionalProperties: false },
);

// ---- GET /v1/trends/flow-graph-data/{fact_flow_id} ----

export const FlowGraphParams = Type.Object(
  {
    // Flow 1 is a fact flow with its hit history in every demo dataset (the example of /docs).
    fact_flow_id: Type.Integer({ minimum: 1, maximum: MAX_ID, example: 1, description: 'The id of a fact flow.' }),
  },
  { additionalProperties: false },
);

export const FlowGraphData = Type.Object(
  {
    flow_id: Id('The fact flow.'),
    hits: Type.Integer({ minimum: 0, description: "The flow's `hit_rate.hits`: how many of `games` are hits." }),
    total: Type.Integer({ minimum: 0, description: "The flow's `hit_rate.total`: how many `games` there are." }),
    games: Type.Array(HitGame, { description: 'The games behind `hits` of `total`, oldest first: `total` games, `hits` of them hits.' }),
  },
  { title: 'FlowGraphData', additionalProperties: false },
);
export type FlowGraphData = Static<typeof FlowGraphData>;
