import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { rawRequest } from '../helpers/raw-http.js';
import type { FuzzSetup } from './openapi-arbitraries.js';
import { answerProblem } from './fuzz-property.js';
import { isRecord, type Json, type Operation, type Parameter } from './openapi-operations.js';
import { FUZZ_DEMO_SCALE, prepareFuzzing } from './fuzz-setup.js';
import { loadDemoData } from '../../src/modules/demo/index.js';
import { jsonText, RawJson, validValue } from './schema-values.js';

/**
 * A sweep, not a sample: every operation of `/openapi.json` with each of its inputs (path, query,
 * header, and every value of its JSON body down to the leaves) set in turn to a number at the edge
 * of a double, one past it (`1e999`, which JSON.parse reads as Infinity), or the words a number
 * parser may take (`NaN`, `Infinity`), and with each object of its body given a key twice; then
 * every path of the portal's and the console's proxies with a dot segment in each of its encodings.
 * No answer may be a 5xx, and every error must be in the error shape. The requests are made from
 * one seed, so every run sends the same ones.
 */
const SEED = 20_261_127;

/** Numbers as a JSON body writes them: the largest doubles, one past them, and what is not a number. */
const RAW_NUMBERS = ['1e308', '1e301', '-1e308', '1e999', '"NaN"', '"Infinity"'];
/** The same in a path, a query or a header, where every value is text. */
const TEXT_NUMBERS = ['1e308', '1e301', '-1e308', '1e999', 'NaN', 'Infinity'];
/** Leaves of a body tried per operation at most (the import's nested lists have hundreds): the first ones, in document order. */
const MAX_LEAVES = 30;

interface Sent {
  operation: string;
  kind: string;
  options: InjectOptions;
}

type HintOf = (field: string) => readonly (string | number)[];

/** The members a schema's object takes (of its first alternative that is an object), or undefined. */
function objectOf(schema: Json): Json | undefined {
  const alternatives = [schema, ...(['anyOf', 'oneOf', 'allOf'] as const).flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]) : []))];
  return alternatives.find((s): s is Json => isRecord(s) && isRecord(s.properties));
}

/**
 * A plain valid value of `schema`, the same on every run, so that the request reaches its handler:
 * the dataset's own where it has one, the first of an enum, a small number within the bounds,
 * today for a date, an object with its required members only (an optional member is tried by itself below).
 */
function plainValue(schema: Json, field: string, hint: HintOf, today: string, seed: number): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const known = hint(field).find((value) => (schema.type === 'integer' || schema.type === 'number' ? typeof value === 'number' : true));
  if (known !== undefined && schema.type !== 'object' && schema.type !== 'array') return known;
  const object = objectOf(schema);
  if (object !== undefined && isRecord(object.properties)) {
    const properties = object.properties;
    const required = (Array.isArray(object.required) ? object.required : []).map(String);
    return Object.fromEntries(required.filter((name) => isRecord(properties[name])).map((name, i) => [name, plainValue(properties[name] as Json, name, hint, today, seed + i)]));
  }
  const alternative = (['anyOf', 'oneOf'] as const).flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]) : [])).find((s): s is Json => isRecord(s) && s.type !== 'null');
  if (alternative !== undefined) return plainValue(alternative, field, hint, today, seed);
  const bounded = (fallback: number) => Math.min(Math.max(fallback, typeof schema.minimum === 'number' ? schema.minimum : -Infinity), typeof schema.maximum === 'number' ? schema.maximum : Infinity);
  switch (schema.type) {
    case 'integer':
      return bounded(1);
    case 'number':
      return bounded(2);
    case 'boolean':
      return false;
    case 'array': {
      const item = isRecord(schema.items) ? plainValue(schema.items, field.replace(/s$/, ''), hint, today, seed) : 1;
      return Array.from({ length: Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1) }, () => item);
    }
    case 'string':
      if (schema.format === 'date') return today;
      if (schema.format === 'date-time') return `${today}T12:00:00Z`;
      return fc.sample(validValue(schema, field, hint), { seed, numRuns: 1 })[0];
    default:
      return 1;
  }
}

type PathTo = Array<string | number>;

/** The paths to every scalar of a value, and to every object, in document order. */
function walk(value: unknown, at: PathTo = [], out: { leaves: PathTo[]; objects: PathTo[] } = { leaves: [], objects: [] }) {
  if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...at, i], out));
  else if (isRecord(value)) {
    if (Object.keys(value).length > 0) out.objects.push(at);
    for (const [key, item] of Object.entries(value)) walk(item, [...at, key], out);
  } else out.leaves.push(at);
  return out;
}

/** `value` with what is at `at` replaced. */
function replaced(value: unknown, at: PathTo, by: (current: unknown) => unknown): unknown {
  if (at.length === 0) return by(value);
  const [head, ...rest] = at;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? replaced(item, rest, by) : item));
  if (isRecord(value) && typeof head === 'string') return { ...value, [head]: replaced(value[head], rest, by) };
  return value;
}

/** An object written with its first key twice: the value as it was, then 1e308. */
function withDuplicateKey(object: unknown): RawJson {
  const text = jsonText(object);
  const [first] = isRecord(object) ? Object.keys(object) : [];
  return new RawJson(first === undefined ? text : `${text.slice(0, -1)},${JSON.stringify(first)}:1e308}`);
}

function credentialsOf(operation: Operation, setup: FuzzSetup): Record<string, string> {
  switch (operation.security) {
    case 'client':
    case 'api-key-only':
      return { 'x-api-key': setup.credentials.apiKey };
    case 'admin':
      return { authorization: `Bearer ${setup.credentials.adminToken}` };
    case 'none':
      return {};
  }
}

/** Every request of the sweep for one operation. */
function requestsOf(operation: Operation, setup: FuzzSetup, today: string, seed: number): Sent[] {
  const hintOf = (where: Parameter['in'] | 'body') => (field: string) => setup.hint(operation, where, field);
  const values = new Map(operation.parameters.map((p, i) => [p, String(plainValue(p.schema, p.name, hintOf(p.in), today, seed + i))]));
  const bodySchema = operation.body?.schema;
  const body = bodySchema === undefined ? undefined : plainValue(bodySchema, 'body', hintOf('body'), today, seed);
  const build = (kind: string, change: { parameter?: Parameter; text?: string; twice?: boolean; payload?: string } = {}): Sent => {
    const valueOf = (p: Parameter) => (p === change.parameter && change.text !== undefined ? change.text : (values.get(p) ?? ''));
    let path = operation.path;
    const query: string[] = [];
    const headers: Record<string, string> = credentialsOf(operation, setup);
    for (const p of operation.parameters) {
      const value = valueOf(p);
      if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
      else if (p.in === 'query') {
        query.push(`${p.name}=${encodeURIComponent(value)}`);
        if (p === change.parameter && change.twice) query.push(`${p.name}=1e308`);
      } else headers[p.name] = value;
    }
    const payload = change.payload ?? (body === undefined ? undefined : jsonText(body));
    return {
      operation: operation.id,
      kind,
      options: {
        method: operation.method,
        url: query.length > 0 ? `${path}?${query.join('&')}` : path,
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(payload === undefined ? {} : { payload }),
      },
    };
  };
  const sent: Sent[] = [build('as generated')];
  for (const parameter of operation.parameters) {
    for (const text of TEXT_NUMBERS) sent.push(build(`${parameter.in} ${parameter.name}=${text}`, { parameter, text }));
    if (parameter.in === 'query') sent.push(build(`query ${parameter.name} twice`, { parameter, twice: true }));
  }
  if (body !== undefined) {
    const { leaves, objects } = walk(body);
    for (const leaf of leaves.slice(0, MAX_LEAVES)) {
      for (const raw of RAW_NUMBERS) sent.push(build(`body ${leaf.join('.')}=${raw}`, { payload: jsonText(replaced(body, leaf, () => new RawJson(raw))) }));
    }
    // Each optional member of the body's top level (or of its first item), present by itself with each number.
    const top = Array.isArray(body) ? { at: [0] as PathTo, schema: isRecord(bodySchema?.items) ? bodySchema.items : {} } : { at: [] as PathTo, schema: bodySchema ?? {} };
    const members = objectOf(top.schema)?.properties;
    for (const [name, member] of Object.entries(isRecord(members) ? members : {})) {
      if (!isRecord(member) || walk(body).leaves.some((leaf) => leaf.length === top.at.length + 1 && leaf[top.at.length] === name)) continue;
      for (const raw of RAW_NUMBERS) sent.push(build(`body ${[...top.at, name].join('.')}=${raw}`, { payload: jsonText(replaced(body, top.at, (o) => ({ ...(isRecord(o) ? o : {}), [name]: new RawJson(raw) }))) }));
    }
    for (const object of objects.slice(0, 10)) sent.push(build(`body ${object.join('.') || '(root)'} with a key twice`, { payload: jsonText(replaced(body, object, withDuplicateKey)) }));
  }
  return sent;
}

/** A dot segment in each way a client may write one. */
const DOTS = ['.', '%2e', '%2E', '%252e', '..', '%2e%2e', '%2E%2E', '%252e%252e', '.%2e', '%2e.', '%252e.', '%25252e%25252e'];
/** What may stand between segments: a slash, doubled, encoded, a backslash plain and encoded. */
const SEPARATORS = ['/', '//', '%2f', '%252f', '\\', '%5c', '%255c'];
/** Where a way out would lead. */
const TARGETS = ['stream/odds', 'auth/refresh', 'v1/account/config', 'admin/v1/clients', 'historical/odds/1.csv', ''];

describe.each(DIALECTS)('edge values on every operation, and dot segments on every proxy path (%s)', (dialect) => {
  let t: Harness;
  let operations: Operation[];
  let setup: FuzzSetup;
  let port: number;
  const sessions: Record<'portal' | 'console', { cookie: string; csrf: string }> = { portal: { cookie: '', csrf: '' }, console: { cookie: '', csrf: '' } };

  beforeAll(async () => {
    t = await harness({ dialect, env: { LOG_LEVEL: 'warn' } });
    await loadDemoData(t.ctx, { scale: FUZZ_DEMO_SCALE });
    ({ operations, setup } = await prepareFuzzing(t));
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  }, 120_000);
  afterAll(async () => t.close());

  it('no operation answers 5xx to 1e308, 1e301, -1e308, 1e999, NaN or Infinity in any input, or to a body key given twice', async () => {
    const failures: string[] = [];
    const byOperation = new Map<string, number>();
    for (const [i, operation] of operations.entries()) {
      // A minute on per operation: the client's per-minute limit never decides an answer here.
      t.clock.set(t.clock.now() + 61_000);
      for (const { kind, options } of requestsOf(operation, setup, new Date(t.clock.now()).toISOString().slice(0, 10), SEED + i * 1000)) {
        byOperation.set(operation.id, (byOperation.get(operation.id) ?? 0) + 1);
        const answer = operation.eventStream ? await t.anonymous.eventStream(options) : await t.anonymous.request(options).catch((error: unknown) => error);
        if (answer instanceof Error) {
          // The test app's check against the document: a 5xx it does not list is still a 5xx.
          if (/ → 5\d\d/.test(answer.message)) failures.push(`${operation.id} [${kind}]: ${answer.message.slice(0, 300)}`);
          continue;
        }
        const problem = answerProblem({ operation: operation.id, kind, method: operation.method, url: String(options.url), headers: {} }, answer as never, operation.ownErrorFormats);
        if (problem !== undefined && problem.startsWith('status 5')) failures.push(`${operation.id} [${kind}] ${String(options.url).slice(0, 120)}: ${problem.slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(operations.filter((o) => !byOperation.has(o.id)).map((o) => o.id)).toEqual([]);
  }, 240_000);

  it('no portal or console path answers 5xx to a dot segment in any encoding, and each proxy refuses every one (403)', async () => {
    // Signed in now: the sweep above moves the clock on by more than a session's idle time.
    for (const [realm, body] of [['portal', { api_key: setup.credentials.apiKey }], ['console', { admin_token: TEST_ADMIN_TOKEN }]] as const) {
      const res = await rawRequest(port, { method: 'POST', path: `/${realm}/session`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, res.body).toBe(201);
      sessions[realm] = { cookie: /^([a-z_]+=[^;]+);/.exec(res.headers['set-cookie'] ?? '')?.[1] ?? '', csrf: (JSON.parse(res.body) as { csrf_token: string }).csrf_token };
    }
    const failures: string[] = [];
    const proxies = [
      { prefix: '/portal/try/', realm: 'portal', methods: ['GET', 'POST'] },
      { prefix: '/portal/api/', realm: 'portal', methods: ['GET', 'POST', 'DELETE'] },
      { prefix: '/console/api/', realm: 'console', methods: ['GET', 'POST', 'PATCH', 'DELETE'] },
    ] as const;
    const other = ['/portal/', '/console/', '/portal/session/', '/console/session/', '/console/health/', '/portal/portal.js/', '/console/console.js/'];
    let sent = 0;
    for (const [d, dot] of DOTS.entries()) {
      for (const [s, separator] of SEPARATORS.entries()) {
        // Each target once per dot and separator; which method and where the dot goes turn with them (the sweep stays in seconds).
        for (const [k, target] of TARGETS.entries()) {
          const tail = [`${dot}${separator}${target}`, `references${separator}${dot}${separator}${dot}${separator}${target}`, `${dot}${separator}${dot}${separator}${target}`][(d + k) % 3];
          for (const proxy of proxies) {
            const method = proxy.methods[(d + s + k) % proxy.methods.length] ?? 'GET';
            const { cookie, csrf } = sessions[proxy.realm];
            const answer = await rawRequest(port, { method, path: `${proxy.prefix}${tail}`, headers: { cookie, 'x-csrf-token': csrf, ...(method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' }) }, ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }) });
            sent += 1;
            if (answer.status !== 403) failures.push(`${method} ${proxy.prefix}${tail} → ${answer.status} ${answer.body.slice(0, 200)}`);
          }
          // The pages' other paths: one target each is enough to meet every dot and separator.
          for (const prefix of k === 0 ? other : []) {
            const answer = await rawRequest(port, { path: `${prefix}${tail}`, headers: { cookie: sessions.portal.cookie } });
            sent += 1;
            if (answer.status >= 500) failures.push(`GET ${prefix}${tail} → ${answer.status} ${answer.body.slice(0, 200)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBe(DOTS.length * SEPARATORS.length * (TARGETS.length * proxies.length + other.length));
  }, 120_000);
});

