import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRecord, type Json, type Operation, operationsOf } from '../fuzz/openapi-operations.js';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, type Harness, harness } from '../helpers/harness.js';

/** The document's name for what a patterned value must be, in words. */
const EXPECTED = 'x-expected';

/** One step from a body down to a field: a property, or the first item of a list. */
type Step = { property: string } | { item: true };

/** A value that a regular expression of the document decides: where it is, and its schema. */
interface Patterned {
  operation: Operation;
  in: 'query' | 'path' | 'header' | 'body';
  /** The parameter's name, or the body field's path as an error names it (`leagues[0].key`). */
  field: string;
  steps: Step[];
  schema: Json;
}

/** Values that break the usual patterns (digits, keys, labels, text without NUL), within any length bound. */
const CANDIDATES = ['x', 'a.b', ' ', '\u0000', '1,,2'];

/**
 * A value that breaks a field's pattern, a 422, once said the regular expression itself
 * (`event_ids must match pattern "^[0-9]{1,16}(,[0-9]{1,16}){0,99}$"`). Every pattern of the document
 * carries what it expects in words, and the message says them. Walked over every parameter and
 * every body field of the document, so that the next pattern is held to it without being listed.
 */
describe.each(DIALECTS)('a value that breaks a pattern is told what is expected in words (%s)', (dialect) => {
  let t: Harness;
  let enterprise: Caller;
  let patterned: Patterned[];

  beforeAll(async () => {
    t = await harness({ dialect });
    enterprise = t.as(await t.client({ tier: 'enterprise' }));
    const document = (await t.anonymous.get<Json>('/openapi.json')).json();
    patterned = operationsOf(document).flatMap((operation) => [
      ...operation.parameters.flatMap((p) => fieldsIn(p.schema, []).map((f) => ({ operation, in: p.in, field: p.name, steps: [], schema: f.schema }))),
      ...(operation.body ? fieldsIn(operation.body.schema, []).map((f) => ({ operation, in: 'body' as const, field: fieldName(f.steps), steps: f.steps, schema: f.schema })) : []),
    ]);
  });
  afterAll(async () => t.close());

  it('every pattern of the document says in words what it expects', () => {
    // The stream's id lists, the names of clients and secrets, the import's keys, names and texts.
    expect(patterned.map((p) => `${p.operation.id} ${p.field}`)).toEqual(
      expect.arrayContaining(['GET /v1/stream/odds event_ids', 'POST /admin/v1/clients name', 'POST /v1/account/secret name', 'POST /admin/v1/import leagues[0].key']),
    );
    for (const p of patterned) {
      const words = p.schema[EXPECTED];
      expect(typeof words === 'string' && words.length > 0, `${p.operation.id} ${p.field}`).toBe(true);
      expect(String(words)).not.toContain(String(p.schema.pattern));
    }
  });

  it('the 422 of a value that breaks one says those words, never the regular expression', async () => {
    for (const p of patterned) {
      const where = `${p.operation.id} ${p.field}`;
      const value = breaking(p.schema);
      const { caller, options } = requestWith(p, value);
      // A stream that were opened would never end by itself: read its head only.
      const answer = p.operation.eventStream ? await caller.eventStream(options) : await caller.request(options);
      expect(answer.statusCode, `${where}: ${answer.body}`).toBe(422);
      const { error } = JSON.parse(answer.body) as { error: { message: string; details: Array<{ field: string; rule: string }> } };
      expect(error.details, `${where}: ${answer.body}`).toContainEqual({ field: p.field, rule: 'pattern' });
      expect(error.message, where).toBe(`${p.field} must be ${String(p.schema[EXPECTED])}`);
      expect(error.message, where).not.toContain(String(p.schema.pattern));
    }
  });

  /** The request that sends `value` where `p` is, every other part of it valid, and its caller. */
  function requestWith(p: Patterned, value: string): { caller: Caller; options: InjectOptions } {
    const { operation } = p;
    const written = encodeURIComponent(value);
    const path = operation.path.replace(`{${p.field}}`, written).replace(/\{[^}]+\}/g, '1');
    // The other query parameters a request must have (a league's export names its league), each at a valid value.
    const required = operation.parameters.filter((q) => q.in === 'query' && q.required && q.name !== p.field).map((q) => `${q.name}=${encodeURIComponent(validOf(q.schema))}`);
    const sent = [...(p.in === 'query' ? [`${p.field}=${written}`] : []), ...required];
    const query = sent.length === 0 ? '' : `?${sent.join('&')}`;
    const headers = p.in === 'header' ? { [p.field]: value } : {};
    const payload = p.in === 'body' && operation.body ? bodyWith(operation.body.schema, p.steps, value) : undefined;
    const options = { method: operation.method, url: `${path}${query}`, headers, ...(payload === undefined ? {} : { payload: payload as Json }) };
    return { caller: operation.security === 'admin' ? t.admin : enterprise, options };
  }
});

/** A valid value of a parameter: its first example, else 1 (an id). */
function validOf(schema: Json): string {
  const [example] = list(schema.examples);
  return example === undefined ? '1' : String(example);
}

/** Every patterned string under a schema, with the steps to it (through nullable alternatives). */
function fieldsIn(schema: Json, steps: Step[]): Array<{ steps: Step[]; schema: Json }> {
  if (typeof schema.pattern === 'string') return [{ steps, schema }];
  const alternatives = [...list(schema.anyOf), ...list(schema.oneOf)].filter(isRecord);
  if (alternatives.length > 0) return alternatives.flatMap((alternative) => fieldsIn(alternative, steps));
  if (isRecord(schema.items)) return fieldsIn(schema.items, [...steps, { item: true }]);
  if (!isRecord(schema.properties)) return [];
  return Object.entries(schema.properties).flatMap(([property, sub]) => (isRecord(sub) ? fieldsIn(sub, [...steps, { property }]) : []));
}

function fieldName(steps: Step[]): string {
  return steps.reduce((name, step) => ('item' in step ? `${name}[0]` : name ? `${name}.${step.property}` : step.property), '');
}

/** A body valid but for `value` at the end of `steps`: the objects on the way hold their required fields. */
function bodyWith(schema: Json, steps: Step[], value: string): unknown {
  const [step, ...rest] = steps;
  if (step === undefined) return value;
  if ('item' in step) {
    const array = ofType(schema, 'array');
    return [bodyWith(isRecord(array.items) ? array.items : {}, rest, value)];
  }
  const object = ofType(schema, 'object');
  const property = isRecord(object.properties) ? object.properties[step.property] : undefined;
  return { ...requiredOf(object), [step.property]: bodyWith(isRecord(property) ? property : {}, rest, value) };
}

/** An object's required fields, the least of each: also where the object may be null (its type then lists both). */
function requiredOf(object: Json): Json {
  const properties = isRecord(object.properties) ? object.properties : {};
  return Object.fromEntries(list(object.required).map(String).map((name) => [name, minimal(isRecord(properties[name]) ? properties[name] : {})]));
}

/** The smallest valid value of a schema: required fields only, the least of each. */
function minimal(schema: Json): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('null')) return null;
  switch (types[0]) {
    case 'integer':
    case 'number':
      if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      // As few items as it takes (a quote names at least one leg).
      return Array.from({ length: typeof schema.minItems === 'number' ? schema.minItems : 0 }, () => minimal(isRecord(schema.items) ? schema.items : {}));
    case 'string':
      if (typeof schema.example === 'string') return schema.example;
      return schema.format === 'date-time' ? '2031-05-06T19:30:00Z' : schema.format === 'date' ? '2031-05-06' : 'a';
    default:
      return requiredOf(ofType(schema, 'object'));
  }
}

/** The alternative of a nullable schema that has this type. */
function ofType(schema: Json, type: string): Json {
  const alternatives = [...list(schema.anyOf), ...list(schema.oneOf)].filter(isRecord);
  return alternatives.find((alternative) => alternative.type === type) ?? schema;
}

/** A candidate the pattern refuses and the length bounds take, so that the pattern is the rule broken. */
function breaking(schema: Json): string {
  const pattern = new RegExp(String(schema.pattern), 'u');
  const [min, max] = [Number(schema.minLength ?? 0), Number(schema.maxLength ?? Infinity)];
  const value = CANDIDATES.find((candidate) => !pattern.test(candidate) && candidate.length >= min && candidate.length <= max);
  if (value === undefined) throw new Error(`no candidate breaks ${String(schema.pattern)}`);
  return value;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
