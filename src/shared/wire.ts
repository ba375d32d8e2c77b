import { type Static, Type } from 'typebox';

/**
 * Wire vocabulary shared by the data features (events, odds, trends, admin): the shapes and
 * renderings that must read the same wherever they appear.
 */

/** Every timestamp on the wire: ISO 8601, UTC, with `Z`. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Filter arrays are short by nature; a cap keeps one request from naming thousands of ids. */
export const MAX_FILTER_ITEMS = 100;

/** A reference to a keyed record: an operator, a betting market. */
export const NamedRef = Type.Object({ id: Type.Integer(), key: Type.String(), name: Type.String() }, { additionalProperties: false });

/** A team as events and flows show it. */
export const TeamRef = Type.Object(
  {
    id: Type.Integer(),
    key: Type.String(),
    name: Type.String(),
  },
  { additionalProperties: false },
);
export type TeamRef = Static<typeof TeamRef>;

/** A team reference; an id the database does not know (imports validate, so only in theory) keeps its id. */
export function teamRef(id: number, key: string | null, name: string | null): TeamRef {
  return { id, key: key ?? '', name: name ?? '' };
}
