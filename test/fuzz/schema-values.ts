import fc from 'fast-check';
import { isRecord, type Json } from './openapi-operations.js';

/**
 * Values for one JSON Schema, in three kinds: valid (what the schema allows, preferring values
 * that exist in the dataset so that handlers find real rows), boundary (the edges of the
 * schema and of the machines behind it: 0, −1, 2^53, 2^63, 1e19, empty, very long, NUL,
 * unicode) and wrong-typed (every other JSON type).
 */

/** A JSON text written as is into a body or query: numbers JSON.stringify cannot write (1e999). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Dataset values for a field, e.g. `sport_id` → ids that exist; empty when there are none. */
export type Hint = (field: string) => readonly (string | number)[];

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** How many items a generated array holds at most, unless the boundary asks for more. */
const SMALL_ARRAY = 4;

export function validValue(schema: Json, field: string, hint: Hint): fc.Arbitrary<unknown> {
  const generic = validBySchema(schema, field, hint);
  const known = hint(field).filter((value) => fitsType(schema, value));
  return known.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: generic }) : generic;
}

function validBySchema(schema: Json, field: string, hint: Hint): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const alternatives = schemaAlternatives(schema);
  if (alternatives.length > 1) return fc.oneof(...alternatives.map((s) => validValue(s, field, hint)));
  switch (schema.type) {
    case 'integer':
      return fc.integer({ min: numberOr(schema.minimum, -MAX_SAFE), max: numberOr(schema.maximum, MAX_SAFE) });
    case 'number':
      return fc.double({ min: numberOr(schema.minimum, -1e9), max: numberOr(schema.maximum, 1e9), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'string':
      return validString(schema);
    case 'array': {
      const items = isRecord(schema.items) ? schema.items : {};
      const maxLength = Math.min(numberOr(schema.maxItems, SMALL_ARRAY), SMALL_ARRAY);
      return fc.array(validValue(items, singular(field), hint), { minLength: Math.min(numberOr(schema.minItems, 0), maxLength), maxLength });
    }
    case 'object':
      return validObject(schema, hint);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

export function validObject(schema: Json, hint: Hint): fc.Arbitrary<Json> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) model[name] = validValue(isRecord(property) ? property : {}, name, hint);
  const required = (Array.isArray(schema.required) ? schema.required : []).map(String).filter((name) => name in model);
  return fc.record(model, { requiredKeys: required });
}

function validString(schema: Json): fc.Arbitrary<string> {
  const minLength = numberOr(schema.minLength, 0);
  const maxLength = Math.min(numberOr(schema.maxLength, 40), 40);
  switch (schema.format) {
    case 'date':
      return dateBetween(1900, 2200).map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return dateBetween(1900, 2200).map((d) => d.toISOString());
    case 'uuid':
      return fc.uuid();
    default:
      break;
  }
  const text =
    typeof schema.pattern === 'string'
      ? fc.stringMatching(new RegExp(schema.pattern, 'u'), { size: 'small' })
      : fc.oneof(fc.string({ unit: 'grapheme-ascii', minLength, maxLength }), fc.string({ unit: 'grapheme', minLength, maxLength }));
  // Lengths are counted in code points, as the validator counts them.
  return text.filter((s) => [...s].length >= minLength && [...s].length <= maxLength);
}

export function boundaryValue(schema: Json, field: string): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const first = String(schema.enum[0]);
    return fc.constantFrom(first.toUpperCase(), ` ${first}`, `${first}\u0000`, '', first.slice(0, -1));
  }
  const alternatives = schemaAlternatives(schema);
  if (alternatives.length > 1) return fc.oneof(...alternatives.map((s) => boundaryValue(s, field)));
  switch (schema.type) {
    case 'integer':
      return fc.constantFrom(...integerEdges(schema));
    case 'number':
      return fc.constantFrom(...numberEdges(schema));
    case 'string':
      return fc.constantFrom(...stringEdges(schema));
    case 'array': {
      const items = isRecord(schema.items) ? schema.items : {};
      const maxItems = numberOr(schema.maxItems, SMALL_ARRAY);
      return fc.oneof(
        fc.constant([]),
        fc.array(boundaryValue(items, singular(field)), { minLength: 1, maxLength: SMALL_ARRAY }),
        // One past the limit: the validator must refuse it before any query is built from it.
        validValue(items, singular(field), () => []).map((item) => Array.from({ length: maxItems + 1 }, () => item)),
      );
    }
    default:
      return wrongTypeValue(schema);
  }
}

/** Integers at the edges of the schema, of 32-bit and 64-bit columns, and of exact doubles. */
function integerEdges(schema: Json): unknown[] {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const edges: unknown[] = [0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 32, MAX_SAFE, -MAX_SAFE, 1.5, -0];
  if (min !== undefined) edges.push(min, min - 1);
  if (max !== undefined) edges.push(max, max + 1);
  const huge = [2 ** 53, 2 ** 63, -(2 ** 63), 1e19, 1e308, -1e308, new RawJson('9223372036854775807'), new RawJson('1e999'), new RawJson('123456789012345678901234567890')];
  return [...edges, ...huge];
}

function numberEdges(schema: Json): unknown[] {
  const min = numberOr(schema.minimum, -1e9);
  const max = numberOr(schema.maximum, 1e9);
  return [min, max, min - 1e-9, max + 1e-9, -0, 5e-324, 0.1 + 0.2, 1e308, -1e308, new RawJson('1e999'), new RawJson('-1e999'), new RawJson('1E+2')];
}

/** Strings at the edges of lengths, formats and encodings. */
function stringEdges(schema: Json): string[] {
  const maxLength = numberOr(schema.maxLength, 200);
  const edges = [
    '',
    ' ',
    '\t\n',
    'a'.repeat(maxLength),
    'a'.repeat(maxLength + 1),
    'é'.repeat(maxLength),
    '💩'.repeat(Math.ceil(maxLength / 2) + 1),
    'x'.repeat(10_000),
    'e\u0301\u202e\u200b\ufeff',
    '\ud800',
    "' OR 1=1 --",
    '%_\\',
    '../../etc/passwd',
    '1',
    '-1',
    'null',
    '\u0000',
    'a\u0000b',
  ];
  switch (schema.format) {
    case 'date':
      edges.push('2024-02-30', '2023-02-29', '0000-01-01', '9999-12-31', '2024-13-01', '2024-1-1', '+275760-09-13', '2024-01-01T00:00:00Z');
      break;
    case 'date-time':
      edges.push('2024-01-01T00:00:00+14:00', '2024-01-01T24:00:00Z', '2016-12-31T23:59:60Z', '1970-01-01T00:00:00.000000001Z', '9999-12-31T23:59:59Z', '2024-01-01');
      break;
    case 'uuid':
      edges.push('00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '0b9e4f3a-6c1d-4f0e-9a55-2f1e8c7d6b5a0', '{0b9e4f3a-6c1d-4f0e-9a55-2f1e8c7d6b5a}');
      break;
    default:
      break;
  }
  return edges;
}

/** Values of every JSON type but the schema's own. */
export function wrongTypeValue(schema: Json): fc.Arbitrary<unknown> {
  const deep = JSON.parse('['.repeat(500) + ']'.repeat(500)) as unknown;
  const values: unknown[] = [null, true, false, 0, 1, 1.5, -1, '', 'a', '1', [], [1], ['a'], {}, { a: 1 }, deep];
  return fc.constantFrom(...values.filter((value) => !fitsType(schema, value)));
}

/** Whether a value has the JSON type (and enum, if any) of a schema. */
export function fitsType(schema: Json, value: unknown): boolean {
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  const alternatives = schemaAlternatives(schema);
  if (alternatives.length > 1) return alternatives.some((s) => fitsType(s, value));
  switch (schema.type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/** `anyOf`/`oneOf` members, or one schema per entry of a `type` array; else the schema itself. */
function schemaAlternatives(schema: Json): Json[] {
  const members = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (members) return members.filter(isRecord);
  if (Array.isArray(schema.type)) return schema.type.map((type) => ({ ...schema, type }));
  return [schema];
}

/** The field name of one item: `sport_ids` → `sport_id`, `operator_keys` → `operator_key`. */
export function singular(field: string): string {
  return field.replace(/_(id|key)s$/, '_$1');
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function dateBetween(fromYear: number, toYear: number): fc.Arbitrary<Date> {
  return fc.date({ min: new Date(Date.UTC(fromYear, 0, 1)), max: new Date(Date.UTC(toYear, 0, 1)), noInvalidDate: true });
}

/** The JSON text of a value; a RawJson is written as is. */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => jsonText(item === undefined ? null : item)).join(',')}]`;
  if (isRecord(value)) {
    const members = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
