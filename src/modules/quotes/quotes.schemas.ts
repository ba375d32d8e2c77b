import { type Static, Type } from 'typebox';
import { EventRef, Id, NamedRef } from '../../shared/wire.js';
import { matching } from '../../platform/http/validation.js';

/**
 * The wire shapes of quotes: the batch a client sends (Odditt's body is a JSON array, the one
 * request body here that is not an object), the hydrated payload its check endpoint receives, and
 * the per-item answers.
 */

export const QUOTE_BATCH_MAX = 50;
export const QUOTE_LEGS_MAX = 20;

/** Our flow types and Odditt's names for them; answers echo the value sent. */
export const QUOTE_FLOW_TYPES = ['fact', 'fun', 'plain', 'fact_flow', 'fun_flow', 'fact_flow_parlay', 'fun_flow_parlay', 'plain_flow_parlay'] as const;

const Region = Type.String({ minLength: 1, maxLength: 10, ...matching('^[A-Za-z0-9-]+$', 'letters, digits and hyphens (NJ)'), example: 'NJ', description: 'Sub-national region code (e.g. NJ), upper-cased.' });
const Country = Type.String({ ...matching('^[A-Za-z]{2}$', 'two letters (US)'), example: 'US', description: 'ISO 3166-1 alpha-2 country code (e.g. US), upper-cased.' });

export const QuoteItem = Type.Object(
  {
    flow_id: Id('The flow to price.'),
    flow_type: Type.Enum(QUOTE_FLOW_TYPES, {
      description:
        "The flow's type: ours (fact, fun, plain) or Odditt's names. For an account whose `flow_vocabulary` is `odditt`, ours are read as Odditt's " +
        'names of them: `plain` as `plain_flow_parlay`, so a plain single answers 404 there.',
    }),
    event_betting_market_position_ids: Type.Array(Id('A selection of the flow (event_betting_market_position_id).'), {
      minItems: 1,
      maxItems: QUOTE_LEGS_MAX,
      description: "The flow's selections to price: one for a single, its legs' for a parlay. An id that is not the flow's makes this item 404.",
    }),
    country: Country,
    region: Type.Optional(Region),
  },
  { title: 'QuoteItem', additionalProperties: false },
);
export type QuoteItem = Static<typeof QuoteItem>;

export const QuoteBatch = Type.Array(QuoteItem, {
  minItems: 1,
  maxItems: QUOTE_BATCH_MAX,
  title: 'QuoteBatch',
  description: `1 to ${QUOTE_BATCH_MAX} flows to price: a JSON array (Odditt's shape), the one request body that is not an object.`,
});

const Price = Type.Object(
  {
    operator: NamedRef('The sportsbook.'),
    decimal: Type.Number({ description: 'Current decimal price.' }),
    american: Type.Integer({ description: 'The same price in American odds.' }),
    status: Type.String({ description: 'The odds row\'s status (e.g. open, suspended).' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the price last changed (ISO 8601, UTC).' }),
  },
  { additionalProperties: false, description: "One sportsbook's current price." },
);

export const PositionMap = Type.Object(
  {
    event_betting_market_position_id: Id('The selection\'s id.'),
    event: EventRef({ id: 'The event\'s id.', start_time: 'When it starts (ISO 8601, UTC).', description: 'The event of the selection.' }),
    betting_market: NamedRef('The betting market.'),
    position: Type.String({ description: 'The selection within the market (home, away, over, under…).' }),
    line: Type.Union([Type.Number(), Type.Null()], { description: 'The line (spread, total); null for none.' }),
    period: Type.Union([Type.String(), Type.Null()], { description: 'The period; null for the whole event.' }),
    player: Type.Union([Type.String(), Type.Null()], { description: 'The player of a player prop; null for none.' }),
    prices: Type.Array(Price, { description: 'Our current prices of this selection, one per sportsbook, by operator id.' }),
  },
  { title: 'EventBettingMarketPositionMap', additionalProperties: false, description: 'One leg of a flow, hydrated.' },
);
export type PositionMap = Static<typeof PositionMap>;

/** The flow a payload or an answer is about, each field described as that side has it. */
function flowNamed(words: { flow_id: string; flow_type: string }) {
  return { flow_id: Type.Integer({ description: words.flow_id }), flow_type: Type.String({ description: words.flow_type }) };
}

export const QuotePayload = Type.Object(
  {
    ...flowNamed({
      flow_id: 'The flow priced.',
      flow_type: "The flow type as the quote named it; for an account whose `flow_vocabulary` is `odditt`, a type of ours as Odditt's name of it (`fact` as `fact_flow`).",
    }),
    country: Type.String({ description: 'ISO 3166-1 alpha-2, upper-cased.' }),
    region: Type.Optional(Type.String({ description: 'Sub-national region, upper-cased.' })),
    event_betting_market_position_maps: Type.Array(PositionMap, { description: 'The legs asked, in the order asked.' }),
  },
  { title: 'QuotePayload', additionalProperties: false, description: 'What a check endpoint receives for one flow.' },
);
export type QuotePayload = Static<typeof QuotePayload>;

export const QuoteResult = Type.Object(
  {
    ...flowNamed({
      flow_id: 'The flow, as asked.',
      flow_type:
        "The flow type, as asked; for an account whose `flow_vocabulary` is `odditt`, a type of ours as Odditt's name of it (`fact` as `fact_flow`, `plain` as `plain_flow_parlay`).",
    }),
    status: Type.Integer({
      description:
        '200: priced; 404: the flow, or one of its ids, is unknown; 429: the outbound cap of the minute was reached; 500: our error; ' +
        '502: the endpoint answered non-2xx, not JSON, too large, or could not be reached or was refused; 504: it did not answer in time.',
    }),
    body: Type.Unknown({ description: "The check endpoint's answer on 200; otherwise `{error: {code, message}}`." }),
  },
  { title: 'QuoteResult', additionalProperties: false },
);
export type QuoteResult = Static<typeof QuoteResult>;

export const QuoteResults = Type.Array(QuoteResult, { title: 'QuoteResults', description: 'One entry per item, in input order.' });

/** What the sandbox takes: one hydrated payload, as quotes send it; the legs are passed through. */
export const SandboxBody = Type.Object(
  {
    flow_id: Id('The flow priced.'),
    flow_type: Type.String({ minLength: 1, maxLength: 40, description: 'The flow type.' }),
    country: Type.String({ minLength: 1, maxLength: 10, description: 'Country code.' }),
    region: Type.Optional(Type.String({ maxLength: 10, description: 'Region code.' })),
    event_betting_market_position_maps: Type.Array(Type.Object({}, { additionalProperties: true, description: 'A hydrated leg, passed through.' }), {
      minItems: 1,
      maxItems: QUOTE_LEGS_MAX,
      description: 'The hydrated legs, as the quote endpoint sends them.',
    }),
  },
  {
    title: 'QuoteSandboxRequest',
    additionalProperties: false,
    // A single's one leg as a quote hydrates it: the sandbox prices whatever legs it is sent.
    examples: [
      {
        flow_id: 1,
        flow_type: 'fact_flow',
        country: 'US',
        region: 'NJ',
        event_betting_market_position_maps: [{ event_betting_market_position_id: 5001, position: 'home', line: null, prices: [{ operator_id: 1, price_decimal: 1.91 }] }],
      },
    ],
  },
);
export type SandboxBody = Static<typeof SandboxBody>;

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Number>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const SandboxAnswer = Type.Object(
  {
    flow_id: Type.Integer({ description: 'As sent.' }),
    flow_type: Type.String({ description: 'As sent.' }),
    button_payload: Nullable(Type.String(), 'Synthetic bet-slip id (`FD-MOCK-…`); null when the leg failed or the parlay cannot be combined.'),
    decimal_odds_value: Nullable(Type.Number(), 'Decimal odds (the parlay\'s combined odds); null on failure.'),
    american_odds_value: Nullable(Type.String(), 'American odds as a string with its sign (+150, -200); null on failure.'),
    fractional_odds_value: Nullable(Type.String(), 'Fractional odds (3/2); null on failure.'),
    odds_implied_probability: Nullable(Type.Number(), 'Implied probability, 0 to 1; null on failure.'),
    payout_multiplier: Nullable(Type.Number(), 'Payout per unit staked (the decimal odds); null on failure.'),
    is_combinable: Type.Optional(Type.Boolean({ description: 'Parlays only: false when a leg failed or the combination was refused.' })),
    parlay_failure_reason: Type.Optional(Nullable(Type.String(), 'Parlays only: why it cannot be combined; null when it can.')),
    event_betting_market_position_maps: Type.Array(Type.Object({}, { additionalProperties: true, description: 'A leg as sent, with its own pricing fields.' }), {
      description: 'The legs as sent, each with its own button_payload and odds fields (null when the leg failed, with `failure_reason`).',
    }),
  },
  { title: 'QuoteSandboxResponse', additionalProperties: false },
);
export type SandboxAnswer = Static<typeof SandboxAnswer>;
