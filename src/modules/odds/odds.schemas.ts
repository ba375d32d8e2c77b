import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { Id, MAX_FILTER_ITEMS, NamedRef } from '../../shared/wire.js';

export const ODDS_MAX_PAGE_SIZE = 100;

export const Price = Type.Object(
  {
    american: Type.Integer({ description: 'd ≥ 2: +round((d−1)×100); otherwise −round(100/(d−1)).', example: -110 }),
    decimal: Type.Number({ example: 1.91 }),
    implied_probability: Type.Number({ minimum: 0, maximum: 1, description: '1/d, to 4 decimals.', example: 0.5236 }),
  },
  { additionalProperties: false },
);

export const OddsItem = Type.Object(
  {
    id: Type.Integer(),
    event_id: Type.Integer(),
    operator: NamedRef,
    betting_market: NamedRef,
    position: Type.String({ description: 'The side priced, e.g. home, away, over, under.', example: 'home' }),
    line: Type.Union([Type.Number(), Type.Null()]),
    price: Price,
    status: Type.String({ example: 'open' }),
    updated_at: Type.String({ format: 'date-time', description: 'ISO 8601, UTC.' }),
  },
  { title: 'Odds', additionalProperties: false },
);
export type OddsItem = Static<typeof OddsItem>;

const ids = (description: string) => Type.Array(Id(), { maxItems: MAX_FILTER_ITEMS, description });

export const OddsByEventBody = Type.Object(
  {
    event_id: Id('The event whose odds to list.'),
    operator_ids: Type.Optional(ids('Only odds from these operators. Wins over operator_keys.')),
    operator_keys: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: MAX_FILTER_ITEMS, description: 'Only odds from these operators, by key.' }),
    ),
    betting_market_ids: Type.Optional(ids('Only odds of these betting markets.')),
    ...pagingProperties(ODDS_MAX_PAGE_SIZE),
  },
  { additionalProperties: false },
);
export type OddsByEventBody = Static<typeof OddsByEventBody>;

export const OddsPage = PageOf(OddsItem, 'OddsPage');
