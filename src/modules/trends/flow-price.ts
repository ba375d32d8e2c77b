import { type Static, Type } from 'typebox';
import { ODDS_FORMATS, type OddsFormat, priceIn } from '../../shared/odds-format.js';
import { operatorLinks } from './flow-links.js';
import type { FlowItem, FlowLegItem } from './trends.schemas.js';

/** Odditt's display modes: each names the price format its clients show. */
export const PRODUCT_MODES = ['sportsbook', 'dfs', 'prediction_market'] as const;
export type ProductMode = (typeof PRODUCT_MODES)[number];

const FORMAT_OF_MODE: Record<ProductMode, OddsFormat> = { sportsbook: 'american', dfs: 'multiplier', prediction_market: 'percent' };

export const OddsFormatField = Type.Optional(
  Type.Enum(ODDS_FORMATS, {
    description:
      'Adds `price` to each flow and leg, in this format (GET /v1/references/odds-format), beside `odds {american, decimal}`. ' +
      'Default: the format of `product_mode` when it is given, else none (no `price`).',
  }),
);
export const ProductModeField = Type.Optional(
  Type.Enum(PRODUCT_MODES, {
    description:
      'Sets the default of `odds_format`, as Odditt does: `sportsbook` american, `dfs` multiplier, `prediction_market` percent. ' +
      'On the flow lists, `dfs` also keeps only over/under player props (as `betting_market_entity_type: player` with a `split`) unless the request names `betting_market_entity_type` or a position.',
  }),
);

/**
 * Fields Odditt's clients send that change only how Odditt's apps draw a flow (images, copy), not
 * which flows answer: accepted and ignored, so that a client that always sends them is served.
 */
export const IgnoredPresentation = (name: string) =>
  Type.Optional(Type.Boolean({ description: `Accepted for Odditt's clients and ignored: ${name} changes only images and copy that this API does not serve.` }));

/** The format a request asks prices in: its own, else its product mode's; undefined: no `price`. */
export function formatAsked(body: { odds_format?: OddsFormat | undefined; product_mode?: ProductMode | undefined }): OddsFormat | undefined {
  return body.odds_format ?? (body.product_mode === undefined ? undefined : FORMAT_OF_MODE[body.product_mode]);
}

/** An operator's link to the bet in one of its apps, from its template and its odds row of the flow's selection. */
export const DeepLink = (app: string) =>
  Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: `Only with \`include_deeplinks: true\`: the operator's link to this bet in its ${app}, from its template and its odds row of the flow's selection (docs/data.md#deep-links); null where it has none.`,
    }),
  );

export const FlowPrice = Type.Optional(
  Type.Union([Type.Integer(), Type.Number(), Type.String(), Type.Null()], {
    description:
      'Only when the request asks a format (`odds_format`, or `product_mode`): the price of `odds` in it (as odds items show it), null without a price.',
  }),
);
export type FlowPrice = Static<typeof FlowPrice>;

function legWithPrice(leg: FlowLegItem, format: OddsFormat): FlowLegItem {
  return { ...leg, price: leg.odds === null ? null : priceIn(format, leg.odds.decimal) };
}

/** A flow and its legs with `price` in `format`; unchanged without one (decision 0111: no new shape unasked). */
export function withPrice(flow: FlowItem, format: OddsFormat | undefined): FlowItem {
  if (format === undefined) return flow;
  return { ...legWithPrice({ ...flow, legs: [] }, format), legs: flow.legs.map((leg) => legWithPrice(leg, format)) };
}

/** A flow and its legs with `hit_history` only when asked, and the deep links when asked. */
export function withAsked(
  flow: FlowItem,
  asked: { full_hit_rate?: true; deeplinks?: true; operator_ids?: readonly number[]; operator_keys?: readonly string[] },
): FlowItem {
  const one = <T extends FlowLegItem>(item: T): T => {
    const { hit_history, ...rest } = item;
    const links = asked.deeplinks ? operatorLinks(item, asked) : {};
    return { ...rest, ...(asked.full_hit_rate ? { hit_history: hit_history ?? null } : {}), ...links } as T;
  };
  return { ...one(flow), legs: flow.legs.map(one) };
}
