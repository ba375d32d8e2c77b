import { createHash } from 'node:crypto';
import { americanOf, fractionalOf, impliedProbabilityOf } from '../../shared/odds-format.js';
import type { SandboxAnswer, SandboxBody } from './quotes.schemas.js';

/** About one leg in seven fails, and as many parlays refuse to combine: enough to exercise a client's error paths. */
const FAILURE_RATE = 0.15;

type Leg = object;

/**
 * The stand-in operator: prices a hydrated payload as a sportsbook's pricing endpoint would, the
 * same way every time for the same payload (the generator is seeded by a digest of it), with
 * failures injected so that a client sees each outcome before it meets a real operator.
 */
export function sandboxQuote(body: SandboxBody): SandboxAnswer {
  const random = seeded(JSON.stringify([body.flow_id, body.flow_type, body.country.toUpperCase(), body.region?.toUpperCase() ?? null, body.event_betting_market_position_maps]));
  const legs = body.event_betting_market_position_maps.map((leg, index) => priceLeg(leg, index, body.flow_id, random));
  const base = { flow_id: body.flow_id, flow_type: body.flow_type };
  if (legs.length === 1) {
    const [only] = legs;
    const priced = only?.decimal === undefined ? unpriced() : pricing(only.decimal, only.payload);
    return { ...base, ...priced, event_betting_market_position_maps: legs.map((l) => l.leg) };
  }
  const failedLeg = legs.some((l) => l.decimal === undefined);
  const refused = random() < FAILURE_RATE;
  const reason = failedLeg ? 'LEG_UNAVAILABLE' : refused ? 'LEGS_NOT_COMBINABLE' : null;
  const combined = legs.reduce((product, l) => product * (l.decimal ?? 1), 1);
  const priced = reason === null ? pricing(round(combined, 2), `FD-MOCK-${body.flow_id}-P-${digest(legs.map((l) => l.payload).join('|'))}`) : unpriced();
  return { ...base, ...priced, is_combinable: reason === null, parlay_failure_reason: reason, event_betting_market_position_maps: legs.map((l) => l.leg) };
}

function priceLeg(leg: Leg, index: number, flowId: number, random: () => number) {
  const id = 'event_betting_market_position_id' in leg && typeof leg.event_betting_market_position_id === 'number' ? leg.event_betting_market_position_id : index + 1;
  const fails = random() < FAILURE_RATE;
  // Our own price when the leg carries one, so that the mock stays near the market; otherwise a plausible one.
  const decimal = ourPrice(leg) ?? round(1.3 + random() * 2.7, 2);
  const payload = `FD-MOCK-${flowId}-${id}-${digest(`${flowId}:${id}:${decimal}`)}`;
  if (fails) return { leg: { ...leg, ...unpriced(), failure_reason: 'SELECTION_UNAVAILABLE' }, decimal: undefined, payload };
  return { leg: { ...leg, ...pricing(decimal, payload) }, decimal, payload };
}

function ourPrice(leg: Leg): number | undefined {
  const prices = 'prices' in leg ? leg.prices : undefined;
  if (!Array.isArray(prices)) return undefined;
  for (const price of prices as unknown[]) {
    if (typeof price === 'object' && price !== null && 'decimal' in price && typeof price.decimal === 'number' && price.decimal > 1) return price.decimal;
  }
  return undefined;
}

function pricing(decimal: number, payload: string) {
  const american = americanOf(decimal);
  return {
    button_payload: payload,
    decimal_odds_value: decimal,
    american_odds_value: american > 0 ? `+${american}` : String(american),
    fractional_odds_value: fractionalOf(decimal),
    odds_implied_probability: impliedProbabilityOf(decimal),
    payout_multiplier: decimal,
  };
}

function unpriced() {
  return {
    button_payload: null,
    decimal_odds_value: null,
    american_odds_value: null,
    fractional_odds_value: null,
    odds_implied_probability: null,
    payout_multiplier: null,
  };
}

function round(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12).toUpperCase();
}

/** mulberry32 over the first 32 bits of the payload's SHA-256: the same payload, the same draws. */
function seeded(text: string): () => number {
  let state = createHash('sha256').update(text).digest().readUInt32BE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
