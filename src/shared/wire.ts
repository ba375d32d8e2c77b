import { type Static, Type } from 'typebox';
import { matching } from '../platform/http/validation.js';
import { MAX_PRICE_DECIMAL } from './odds-format.js';

/**
 * Wire vocabulary shared by the data features (events, odds, trends, admin): the shapes and
 * renderings that must read the same wherever they appear.
 */

let lastIso = { ms: Number.NaN, text: '' };

/** Every timestamp on the wire: ISO 8601, UTC, with `Z`. */
export function iso(ms: number): string {
  // A feed's batch gives hundreds of rows one instant: the last instant's text is kept.
  if (ms !== lastIso.ms) lastIso = { ms, text: new Date(ms).toISOString() };
  return lastIso.text;
}

/** Filter arrays are short by nature; a cap keeps one request from naming thousands of ids. */
export const MAX_FILTER_ITEMS = 100;

/** A keyed record's id, key and name inside another item, each field described as that kind of record has it. */
const KeyedRef = (fields: { id: string; key: string; name: string }) => (description: string) =>
  Type.Object(
    { id: Type.Integer({ description: fields.id }), key: Type.String({ description: fields.key }), name: Type.String({ description: fields.name }) },
    { additionalProperties: false, description },
  );

/**
 * A selection's own id (Odditt's event_betting_market_position_id): stable across imports, shared by
 * the odds rows that price the selection and the flows that bet on it.
 */
export const SelectionId = (what: string) =>
  Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: `${what}: its event_betting_market_position_id, the same on its odds and on its flows (POST /v1/trends/by-betting-market-position). Null when unknown.`,
  });

/**
 * A reference to a keyed record (an operator, a betting market) inside another item. A function,
 * so that each place says what the reference is: every field of the document has a description.
 */
export const NamedRef = KeyedRef({
  id: 'Id of the record.',
  key: 'Key of the record (lower-case, no spaces), as in its reference list.',
  name: 'Display name of the record.',
});

/** A team as events and flows show it. */
export const TeamRef = KeyedRef({ id: 'Team id (as in GET /v1/references/teams).', key: 'Team key, unique within its league.', name: 'Team name; in tennis, the player.' });
export type TeamRef = Static<ReturnType<typeof TeamRef>>;

/** An event inside another item (a flow, a quote's leg): its id, its start and its teams, the first two described as that item has them. */
export const EventRef = (fields: { id: string; start_time: string; description: string }) =>
  Type.Object(
    {
      id: Type.Integer({ description: fields.id }),
      start_time: Type.String({ format: 'date-time', description: fields.start_time }),
      home_team: TeamRef('The home team.'),
      away_team: TeamRef('The away team.'),
    },
    { additionalProperties: false, description: fields.description },
  );

/** A team reference; an id the database does not know (imports validate, so only in theory) keeps its id. */
export function teamRef(id: number, key: string | null, name: string | null): TeamRef {
  return { id, key: key ?? '', name: name ?? '' };
}

/*
 * Request values every module shares, bounded so that both databases can store and compare
 * them: a value past these bounds is a 422 from the schema, never a driver error (a 500) on one
 * database and an empty answer on the other.
 */

/**
 * Ids are the upstream's positive integers, at most 2^53−1: past that a JSON number is no
 * longer exact in JavaScript, and past 2^63−1 PostgreSQL's bigint refuses it (decision 0032).
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

export const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...(description ? { description } : {}) });

/** A decimal price taken as input: above 1, at most MAX_PRICE_DECIMAL (docs/data.md#odds-formats). */
export const DecimalPrice = (description: string) => Type.Number({ exclusiveMinimum: 1, maximum: MAX_PRICE_DECIMAL, description });

/** PostgreSQL text cannot hold U+0000: text that reaches the database excludes it. */
export const NO_NUL = matching('^[^\\u0000]*$', 'text without U+0000 (NUL)');

/** A name or label: 1 to `maxLength` characters, not only blanks, no U+0000. */
export const Label = (maxLength: number, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength,
    ...matching('^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$', 'text that is not only blanks, without U+0000 (NUL)'),
    ...(description ? { description } : {}),
  });

/**
 * Odditt's `schema_version` of the historical endpoints: the payload version asked. One exists,
 * `v1`, the default; another is 422 naming it, so that a client asking a later one learns at once.
 */
export const SCHEMA_VERSIONS = ['v1'] as const;
export const SchemaVersion = Type.Optional(
  Type.Enum(SCHEMA_VERSIONS, { description: 'The payload schema version: `v1`, the only one and the default (another value is 422).' }),
);
