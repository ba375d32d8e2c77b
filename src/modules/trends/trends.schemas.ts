import { type Static, type TSchema, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { matching } from '../../platform/http/validation.js';
import { DeepLink, FlowPrice, IgnoredPresentation, OddsFormatField, ProductModeField } from './flow-price.js';
import { EventRef, Id, MAX_FILTER_ITEMS, NamedRef, SelectionId, TeamRef } from '../../shared/wire.js';
import { FACT_FLOW_TYPES, FLOW_SOURCES } from '../../platform/db/schema.js';

export const FLOWS_MAX_PAGE_SIZE = 25;
export const FLOW_TYPES = ['fact', 'fun', 'plain'] as const;
/** Odditt's names of the flow types: input aliases of ours, and what an account answering in Odditt's vocabulary is told. */
export const ODDITT_FLOW_TYPES = ['fact_flow', 'fun_flow', 'fact_flow_parlay', 'fun_flow_parlay', 'plain_flow_parlay'] as const;
export type OddittFlowType = (typeof ODDITT_FLOW_TYPES)[number];
export const LIKELIHOODS = ['likely', 'possible', 'longshot'] as const;
export const ENTITY_TYPES = ['team', 'player', 'event'] as const;
export const SPLITS = ['over', 'under'] as const;
/** How soon `starting_soon` means: events starting within this many hours (docs/data.md#starting-soon). */
export const STARTING_SOON_HOURS = 3;

// ---- Items ----

/** How often a trend held; the flow item's and the tooltip's. */
export const HitRate = Type.Object(
  {
    hits: Type.Integer({ minimum: 0, description: 'How many times in the sample the bet would have won.' }),
    total: Type.Integer({ minimum: 0, description: 'The sample: how many past games (or meetings, or season games) were counted.' }),
    pct: Type.Number({ minimum: 0, maximum: 100, description: 'hits / total × 100, a percentage to 2 decimals (the hit-rate filters compare with it).' }),
  },
  { additionalProperties: false, description: 'How often the trend held: `hits` of the last `total`.' },
);

/** One past game of a fact flow's hit history (flow-graph-data's games, a flow's `hit_history`). */
export const HitGame = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'The day of the past game, YYYY-MM-DD.' }),
    opponent: TeamRef("Who the side of the trend played: the focus team, a focus player's team, or for a flow on the event the home team."),
    hit: Type.Boolean({ description: 'Whether the bet would have won in that game.' }),
  },
  { title: 'HitGame', additionalProperties: false, description: 'One past game.' },
);
export type HitGame = Static<typeof HitGame>;

/** Fields a flow item has only when the request asks for them (decision 0111: no new shape unasked). */
const askedFields = {
  hit_history: Type.Optional(
    Type.Union([Type.Array(HitGame), Type.Null()], {
      description:
        'Only with `full_hit_rate: true`: the games behind `hit_rate`, oldest first (as GET /v1/trends/flow-graph-data/{fact_flow_id} lists them); null for a flow imported without them.',
    }),
  ),
  bet_ios_deep_link_url: DeepLink('iOS app'),
  bet_android_deep_link_url: DeepLink('Android app'),
  bet_web_deep_link_url: DeepLink('web site'),
};

const flowFields = {
  id: Type.Integer({ description: 'Flow id.' }),
  flow_type: Type.Enum([...FLOW_TYPES, ...ODDITT_FLOW_TYPES], {
    description:
      '`fact`: a recent trend (the last N games); `fun`: a quirky angle (a weekday, an opponent, after a loss); `plain`: a season record. See docs/data.md#flows. ' +
      "An account whose `flow_vocabulary` is `odditt` gets Odditt's names instead, and only them: `fact_flow`, `fun_flow` for a single or a leg, " +
      '`fact_flow_parlay`, `fun_flow_parlay`, `plain_flow_parlay` for a parlay, and `plain_flow_parlay` for a plain leg (docs/api.md#coming-from-odditt).',
  }),
  bet_type: Type.Enum(['single', 'parlay'], { description: '`single`: one bet; `parlay`: a same-event combination of the single flows in `legs`.' }),
  sport_id: Type.Integer({ description: 'Sport of the event.' }),
  league_id: Type.Integer({ description: 'League of the event.' }),
  event: EventRef({
    id: 'Event id (as in POST /v1/events/upcoming-events).',
    start_time: 'Scheduled start of the event, ISO 8601, UTC.',
    description: 'The upcoming event the bet is on.',
  }),
  focus_entity: Type.Object(
    {
      type: Type.Enum(['team', 'player', 'event'], { description: 'What the trend is about: a team, a player, or the event as a whole (totals, draws, parlays).' }),
      id: Type.Integer({ description: 'The team, player or event id.' }),
      name: Type.String({ description: 'The team or player name; for an event, "Home vs Away".' }),
    },
    { additionalProperties: false, description: 'Who or what the trend is about.' },
  ),
  betting_market: Type.Union([NamedRef('The betting market.'), Type.Null()], {
    description: 'The betting market of the bet; null for a parlay (its legs name theirs).',
  }),
  event_betting_market_position_id: SelectionId('The selection a single bets on; null for a parlay (its legs name theirs)'),
  line: Type.Union([Type.Number(), Type.Null()], { description: 'The handicap or total of the bet, e.g. 221.5; null when the market has no line.' }),
  split: Type.Union([Type.Enum(['over', 'under']), Type.Null()], { description: 'Which side of the line the bet takes; null for bets without an over/under.' }),
  description: Type.String({ description: 'The trend in words, e.g. "Boston Hawks have covered the spread in 8 of their last 10 road games".' }),
  hit_rate: HitRate,
  likelihood: Type.Enum(LIKELIHOODS, {
    description: 'How likely the bet is to win, from its price: `likely`, `possible` or `longshot`. See docs/data.md#likelihood.',
  }),
  implied_probability: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
    description: 'The chance the price implies, 1/d as a fraction from 0 to 1, to 4 decimals; null without a price.',
  }),
  tags: Type.Array(NamedRef('A tag type (GET /v1/references/tag-types/search; its breadcrumbs say where it sits).'), {
    description: 'The tags of the flow from the flow tag taxonomy, in id order; empty when it has none.',
  }),
  odds: Type.Union(
    [
      Type.Object(
        {
          american: Type.Integer({ description: 'American odds of the price (see the odds item).' }),
          decimal: Type.Number({ description: 'Decimal odds: the total returned per unit staked.' }),
        },
        { additionalProperties: false, description: 'The price of the bet.' },
      ),
      Type.Null(),
    ],
    { description: 'A typical price for the bet (for a parlay, the parlay price); null without one.' },
  ),
  fact_flow_type: Type.Enum(FACT_FLOW_TYPES, {
    description:
      "A fact flow's sub-type, as Odditt names them: `base` (a plain trend), `expanded` (a trend under a condition, e.g. at home after a loss) or `multi` (several trends in one); `base` for every fun and plain flow.",
  }),
  price: FlowPrice,
  source: Type.Enum(FLOW_SOURCES, {
    description:
      'Where `hit_rate` and the hit history come from: `computed` from the graded results the API holds (a team\'s result in a market over its last `total` games), or `imported` with the flow (docs/data.md#computed-trends).',
  }),
  disagrees: Type.Boolean({ description: 'True when the imported hits or total disagreed with the graded results the flow is computed from (the computed ones are shown).' }),
  ...askedFields,
};

/** A parlay's leg: a flow item of its own. Legs are single flows, so a leg's `legs` is empty. */
export const FlowLegItem = Type.Object(
  {
    ...flowFields,
    legs: Type.Array(Type.Object({}), { maxItems: 0, description: 'Always empty: a leg is a single flow.' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the flow was last imported, ISO 8601, UTC.' }),
  },
  { title: 'FlowLeg', additionalProperties: false },
);

export const FlowItem = Type.Object(
  {
    ...flowFields,
    legs: Type.Array(FlowLegItem, { description: "A parlay's legs, in order, as flow items; empty for a single." }),
    updated_at: Type.String({ format: 'date-time', description: 'When the flow was last imported, ISO 8601, UTC.' }),
  },
  { title: 'Flow', additionalProperties: false },
);
export type FlowItem = Static<typeof FlowItem>;
export type FlowLegItem = Static<typeof FlowLegItem>;

export const FlowsPage = PageOf(FlowItem, 'FlowsPage');

// ---- Requests ----

const ids = (description: string) => Type.Optional(Type.Array(Id('An id.'), { maxItems: MAX_FILTER_ITEMS, description }));
const id = (plural: string) => Type.Optional(Id(`Same as a one-item ${plural}.`));
const key = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }));
/** A date-time without an offset, as Odditt's Python client sends a naive datetime: read as UTC. */
const LOCAL_DATE_TIME = matching(
  '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?$',
  'a date (2030-06-15) or a date-time: with an offset (2030-06-15T10:00:00Z), or without one (2030-06-15T10:00:00, read as UTC)',
);
const dateOrDateTime = (description: string) =>
  Type.Optional(
    // The offset-less form first: a value none of the three takes is told the words of all three.
    Type.Union([Type.String(LOCAL_DATE_TIME), Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], {
      description: `${description} A date-time without an offset is UTC.`,
    }),
  );
const percent = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 100, description }));
const fraction = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 1, description }));
const keys = (description: string) =>
  Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200, description: 'A key.' }), { maxItems: MAX_FILTER_ITEMS, description }));
/** The filters on the bet itself: a single's own, or one leg's of a parlay. */
const ofBet = 'A parlay matches when one of its legs matches every such filter on the bet.';

/** The body of both flow lists, in the order the document lists its fields. */
function flowFilters<T extends TSchema>(flowType: T) {
  return {
    ...subjectFilters(),
    ...betFilters(),
    ...kindFilters(flowType),
    ...answerOptions(),
    ...rangeFilters(),
    ...pagingProperties(FLOWS_MAX_PAGE_SIZE),
  };
}

/** What the flows are about: sport, league, event, team, player, and the operators pricing their event. */
function subjectFilters() {
  return {
    sport_ids: ids('Flows of these sports. Wins over sport_key.'),
    sport_id: id('sport_ids'),
    sport_key: key('A sport key, e.g. `basketball`.'),
    league_ids: ids('Flows of these leagues. Wins over league_key.'),
    league_id: id('league_ids'),
    league_key: key('Plain (`nba`) or qualified (`united-states.nba`).'),
    event_ids: ids('Flows of these events.'),
    event_id: id('event_ids'),
    team_ids: ids("Flows of these teams' events, or focused on these teams. Wins over team_key."),
    team_id: id('team_ids'),
    team_key: key('Plain (`lakers`) or qualified with the league key (`nba.lakers`).'),
    player_ids: ids('Flows focused on these players (a parlay matches when one of its legs does). Wins over player_key.'),
    player_id: id('player_ids'),
    player_key: key('Plain or qualified with the team key (`lakers.lebron-james`).'),
    operator_ids: ids('Flows of events that these operators price. Wins over operator_keys.'),
    operator_id: id('operator_ids'),
    operator_keys: keys('Flows of events that these operators price, by key (e.g. `draftkings`); an unknown key is 404.'),
    operator_key: key('Same as a one-item operator_keys.'),
  };
}

/** The bet's market, its category, tags, entity type and side of the line. */
function betFilters() {
  return {
    betting_market_ids: ids(`Flows of bets in these betting markets. ${ofBet}`),
    betting_market_id: id('betting_market_ids'),
    betting_market_category_ids: ids(`Flows of bets in markets of these categories (GET /v1/references/betting-market-categories). ${ofBet}`),
    betting_market_category_id: id('betting_market_category_ids'),
    tag_type_ids: ids(
      'Flows tagged with one of these tag types or with one of their descendants (GET /v1/references/tag-types/search, /children); an unknown id matches nothing.',
    ),
    betting_market_entity_type: Type.Optional(
      Type.Enum(ENTITY_TYPES, { description: `Flows of bets in markets about a \`team\`, a \`player\` or the \`event\` (the market's entity_type). ${ofBet}` }),
    ),
    split_type: Type.Optional(
      Type.Enum([...SPLITS, 'overs', 'unders'], {
        description: `Flows of bets on this side of the line (the item field \`split\`); Odditt's \`overs\` and \`unders\` are read as \`over\` and \`under\`. ${ofBet}`,
      }),
    ),
  };
}

/** The kind of flow: its type and sub-type, single or parlay, its focus, its position, and whether alternate lines count. */
function kindFilters<T extends TSchema>(flowType: T) {
  return {
    flow_type: flowType,
    bet_type: Type.Optional(
      Type.Enum(['single', 'parlay', 'singles', 'same_game_parlay'], {
        description: '`singles` is read as `single`, and Odditt\'s `same_game_parlay` as `parlay` (every parlay here is a same-event parlay).',
      }),
    ),
    focus_entity_type_id: Type.Optional(
      Type.Enum([1, 2, 3], { description: "Odditt's focus filter: flows about a team (1), a player (2) or the event (3) (the item field `focus_entity.type`)." }),
    ),
    team_split: Type.Optional(
      Type.Enum(['home', 'away'], { description: 'Flows about the home (or away) team of their event: `focus_entity` is that team.' }),
    ),
    betting_market_position_ids: ids(
      `Flows betting on these positions (GET /v1/references/betting-market-positions, e.g. home, over): the position of the flow's selection (\`event_betting_market_position_id\`). ${ofBet}`,
    ),
    betting_market_position_id: id('betting_market_position_ids (deprecated by Odditt)'),
    fact_flow_type: Type.Optional(
      Type.Enum(FACT_FLOW_TYPES, {
        description:
          "Fact flows of this sub-type (the item field `fact_flow_type`). Default `base`, as Odditt: expanded and multi fact flows are listed only when asked. Fun and plain flows are all `base`, so `expanded` or `multi` lists fact flows only.",
      }),
    ),
    include_only_basic_trends: Type.Optional(
      Type.Boolean({ description: 'true: base flows only (fact flows without a condition), as `fact_flow_type: base`; with another `fact_flow_type` it is 422. false is no filter.' }),
    ),
    include_alt_lines: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          "false: leaves out flows on an alternate line, and parlays with a leg on one. A flow is on an alternate line when another line of its selection's event, market and position has its two sides priced more alike (docs/data.md#alternate-lines, decision 0235); a flow without a selection never is.",
      }),
    ),
  };
}

/** What each flow carries: its hit history, deep links and price format; and the presentation fields accepted and ignored. */
function answerOptions() {
  return {
    full_hit_rate: Type.Optional(
      Type.Boolean({ description: 'true: each flow (and each leg) carries `hit_history`, the games behind its `hit_rate`.' }),
    ),
    include_deeplinks: Type.Optional(
      Type.Boolean({
        description:
          "true: each flow carries the operator's deep links (`bet_ios_deep_link_url`, `bet_android_deep_link_url`, `bet_web_deep_link_url`), null where the operator has no template or no odds row of the flow's selection. Requires exactly one operator (operator_ids, operator_id or operator_keys), as Odditt does: else 422.",
      }),
    ),
    odds_format: OddsFormatField,
    product_mode: ProductModeField,
    use_cartoon_images: IgnoredPresentation('`use_cartoon_images`'),
    include_star_sign_content: IgnoredPresentation('`include_star_sign_content`'),
  };
}

/** Ranges: likelihood, hit rate, implied probability and the event's start. */
function rangeFilters() {
  return {
    likelihood_type: Type.Optional(Type.Enum(LIKELIHOODS, { description: 'Only flows of this likelihood (the item field `likelihood`).' })),
    min_hit_rate_threshold: percent('Hit rate (`hit_rate.pct`) at least this, in percent from 0 to 100, inclusive: 70 means 70 %.'),
    max_hit_rate_threshold: percent('Hit rate (`hit_rate.pct`) at most this, in percent from 0 to 100, inclusive.'),
    min_implied_probability_threshold: fraction('`implied_probability` at least this, a fraction from 0 to 1, inclusive: 0.5 means even money or shorter. Flows without a price do not match.'),
    max_implied_probability_threshold: fraction('`implied_probability` at most this, a fraction from 0 to 1, inclusive. Flows without a price do not match.'),
    event_start_date_from: dateOrDateTime('Events starting at or after this instant; a date means its 00:00 UTC.'),
    event_start_date_to: dateOrDateTime('Events starting at or before this instant; a date means the whole day, UTC.'),
    starting_soon: Type.Optional(
      Type.Boolean({
        description: `true: only events starting in the next ${STARTING_SOON_HOURS} hours, from the start of the current minute (UTC); false is no filter. Combines with the start dates.`,
      }),
    ),
  };
}

// The requests "Try it out" in /docs sends. They hold in every demo dataset: fact flows are about
// 70 % of it, and every league has events, hence flows (sport 2 is basketball, league 12 the NBA).
export const FlowsBody = Type.Object(
  flowFilters(Type.Optional(Type.Enum(FLOW_TYPES, { default: 'fact', description: 'The flow type to list (default fact).' }))),
  { additionalProperties: false, examples: [{ flow_type: 'fact', page: 1, page_size: 25 }] },
);
export const MixedFlowsBody = Type.Object(
  flowFilters(Type.Optional(Type.Enum(FLOW_TYPES, { description: 'Narrows the mix to one type (default: every type).' }))),
  { additionalProperties: false, examples: [{ sport_id: 2, league_id: 12, page: 1, page_size: 25 }] },
);
export type FlowsBody = Static<typeof FlowsBody>;
export type MixedFlowsBody = Static<typeof MixedFlowsBody>;
