import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../helpers/harness.js';
import { loadConfig } from '../../src/config.js';
import { sportsdata } from '../cli/cli-helpers.js';
import { ROOT } from '../helpers/process.js';
import { backticked, cellsOf, readDoc, section, tableRows } from './markdown.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every operation of the document: `METHOD /path` → its operation object. */
function operations(doc: Json): Map<string, Json> {
  const found = new Map<string, Json>();
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    for (const [method, operation] of Object.entries(isObject(item) ? item : {})) if (isObject(operation)) found.set(`${method.toUpperCase()} ${path}`, operation);
  }
  return found;
}

function bodySchema(operation: Json): Json | undefined {
  const content = isObject(operation.requestBody) && isObject(operation.requestBody.content) ? operation.requestBody.content : {};
  const json = content['application/json'];
  return isObject(json) && isObject(json.schema) ? json.schema : undefined;
}

/** The largest page_size an operation takes (query string or body), undefined when it takes none. */
function pageSizeMaximum(operation: Json): number | undefined {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters.filter(isObject) : [];
  const parameter = parameters.find((p) => p.name === 'page_size');
  const bodyProperties = bodySchema(operation)?.properties;
  const schema = isObject(parameter?.schema) ? parameter.schema : isObject(bodyProperties) ? bodyProperties.page_size : undefined;
  return isObject(schema) && typeof schema.maximum === 'number' ? schema.maximum : undefined;
}

/** `{a, b?}` as written in the docs: each field and whether it is optional. */
function fieldsOf(list: string): Map<string, boolean> {
  return new Map(
    list
      .split(',')
      .map((field) => field.trim())
      .filter((field) => field !== '' && field !== '…')
      .map((field) => [field.replace(/\?$/, ''), field.endsWith('?')] as const),
  );
}

/** An object schema's fields, each with whether it is optional. */
function schemaFields(schema: Json): Map<string, boolean> {
  const required = Array.isArray(schema.required) ? schema.required : [];
  return new Map(Object.keys(isObject(schema.properties) ? schema.properties : {}).map((name) => [name, !required.includes(name)] as const));
}

/** A 2xx answer's JSON schema. */
function successSchema(operation: Json, status?: string): Json | undefined {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const code = status ?? Object.keys(responses).find((c) => c.startsWith('2'));
  const response = code === undefined ? undefined : responses[code];
  const content = isObject(response) && isObject(response.content) ? response.content['application/json'] : undefined;
  return isObject(content) && isObject(content.schema) ? content.schema : undefined;
}

/** `METHOD /path` of a documented row's first cell (a query string left out). */
const operationOf = (cell: string): string | undefined => /^`(GET|POST|PATCH|PUT|DELETE) ([^`?]+)/.exec(cell)?.slice(1, 3).join(' ');

/** Every table row of a document that documents an operation, with that operation's key. */
function operationRows(markdown: string): Array<{ key: string; cells: string[] }> {
  return markdown
    .split('\n')
    .filter((line) => /^\| `(GET|POST|PATCH|PUT|DELETE) \//.test(line))
    .map(cellsOf)
    .flatMap((cells) => {
      const key = operationOf(cells[0] ?? '');
      return key === undefined ? [] : [{ key, cells }];
    });
}

/**
 * The docs had said things the code no longer did (a variable, a metric, a request body, a
 * page size). Where a doc states a fact the code also knows, these tests compare the two, so that
 * the next change to one of them fails here until the other follows.
 */
describe('the docs state what the code does', () => {
  let t: Harness;
  let doc: Json;
  let ops: Map<string, Json>;
  beforeAll(async () => {
    t = await harness({ dialect: 'sqlite' });
    doc = (await t.anonymous.get('/openapi.json')).json<Json>();
    ops = operations(doc);
  });
  afterAll(async () => t.close());

  describe('docs/operations.md', () => {
    it('its metrics table lists every series /metrics has, with its type, and the endpoint describes the same ones', async () => {
      const text = (await t.anonymous.get('/metrics')).body;
      const served = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1] ?? '', m[2] ?? ''] as const));
      const rows = tableRows(section(readDoc('docs/operations.md'), 'Health, readiness and metrics'));
      const patterns = rows.flatMap(([series = '']) => backticked(series)).filter((name) => name.endsWith('*'));
      const documented = new Map(rows.flatMap(([series = '', type = '']) => backticked(series).filter((s) => !s.endsWith('*')).map((s) => [s.replace(/\{.*$/, ''), type] as const)));
      expect(patterns).toEqual(['process_*', 'nodejs_*']);
      const ours = [...served.keys()].filter((name) => !patterns.some((p) => name.startsWith(p.slice(0, -1))));
      expect([...documented.keys()].sort()).toEqual(ours.sort());
      for (const [name, type] of documented) expect(type, name).toBe(served.get(name));
      const description = String(ops.get('GET /metrics')?.description);
      for (const name of documented.keys()) expect(description, name).toContain(`\`${name}`);
    });

    it('its command-line table lists the commands of sportsdata, and no other', async () => {
      const commandsOf = async (...args: string[]) => {
        const help = await sportsdata({}, ...args, '--help');
        const list = help.stdout.split('\nCommands:\n')[1] ?? '';
        return [...list.matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1] ?? '').filter((name) => name !== 'help');
      };
      const rows = tableRows(section(readDoc('docs/operations.md'), 'The command line')).map(([command = '']) => backticked(command)[0] ?? '');
      expect(rows.map((command) => command.split(' ')[0]).sort()).toEqual((await commandsOf()).sort());
      for (const group of ['clients', 'tokens']) {
        const documented = rows.find((command) => command.startsWith(`${group} `))?.split(' ')[1]?.split('|') ?? [];
        expect(documented.sort(), group).toEqual((await commandsOf(group)).sort());
      }
    });

    it('its admin table gives each body the fields the admin API takes', () => {
      const rows = tableRows(section(readDoc('docs/operations.md'), 'Client accounts'));
      let checked = 0;
      for (const [first = ''] of rows) {
        const key = operationOf(first);
        const body = /` `\{([^}]*)\}`/.exec(first)?.[1];
        if (key === undefined || body === undefined) continue;
        const schema = bodySchema(ops.get(key) ?? {});
        expect(schema, key).toBeDefined();
        expect(fieldsOf(body), key).toEqual(schemaFields(schema ?? {}));
        checked += 1;
      }
      expect(checked).toBe(2);
    });
  });

  describe('docs/api.md', () => {
    it('names each operation that exists', () => {
      const rows = operationRows(readDoc('docs/api.md'));
      expect(rows.length).toBeGreaterThan(30);
      // The document itself and the page that renders it are served beside the API, not in it.
      for (const { key } of rows) if (!ops.has(key)) expect(['GET /openapi.json', 'GET /docs'], key).toContain(key);
    });

    it('says which operations take no body, and gives the fields of each body and each flat answer it shows', () => {
      let checked = 0;
      for (const { key, cells } of operationRows(readDoc('docs/api.md'))) {
        const operation = ops.get(key) ?? {};
        const [, input = '', output = ''] = cells;
        if (/\bno body\b/.test(input)) {
          expect(operation.requestBody, `${key} takes a body`).toBeUndefined();
          checked += 1;
        }
        const body = /body `\{([^}]*)\}`/.exec(input)?.[1];
        if (body !== undefined) {
          expect(fieldsOf(body), key).toEqual(schemaFields(bodySchema(operation) ?? {}));
          checked += 1;
        }
        // A flat object shown as the answer (`201 {a, b, …}`): with `…` some of its fields, else all of them.
        const answer = /^(?:(\d{3}) )?`\{([^{}[\]]*)\}`/.exec(output);
        if (answer !== null) {
          const shown = fieldsOf(answer[2] ?? '');
          const actual = schemaFields(successSchema(operation, answer[1]) ?? {});
          if ((answer[2] ?? '').includes('…')) for (const field of shown.keys()) expect(actual.has(field), `${key} answers ${field}`).toBe(true);
          else expect([...shown.keys()].sort(), key).toEqual([...actual.keys()].sort());
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThan(8);
    });

    it('every page_size maximum it states is the operation’s', () => {
      let checked = 0;
      for (const { key, cells } of operationRows(readDoc('docs/api.md'))) {
        const stated = /`page_size` \(at most (\d+)\)/.exec(cells.join(' | '))?.[1];
        if (stated === undefined) continue;
        expect(pageSizeMaximum(ops.get(key) ?? {}), key).toBe(Number(stated));
        checked += 1;
      }
      expect(checked).toBeGreaterThan(4);
    });
  });

  describe('README.md and examples/', () => {
    const examples = () => readdirSync(join(ROOT, 'examples'))
      // The example programs; examples/the-odds-api holds sample answers, which no program is.
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(ROOT, 'examples', file), 'utf8'));

    it('the examples and the README call the origin the server listens on by default', () => {
      const { host, port } = loadConfig({});
      const origin = `http://${host}:${port}`;
      expect(examples().join('\n')).toContain(`process.env.SPORTS_DATA_URL ?? '${origin}'`);
      const readme = readDoc('README.md');
      const origins = new Set([...readme.matchAll(/https?:\/\/(?:127\.0\.0\.1|localhost):\d+/g)].map((m) => m[0]));
      // The other origin is the README's example of SPORTS_DATA_URL for a server started elsewhere.
      expect([...origins].sort()).toEqual([origin, 'http://127.0.0.1:3000'].sort());
    });

    it('every variable the examples read is in the README', () => {
      const read = new Set(examples().flatMap((code) => [...code.matchAll(/\bSPORTS_DATA_[A-Z_]+/g)].map((m) => m[0])));
      expect(read.size).toBeGreaterThanOrEqual(4);
      for (const name of read) expect(readDoc('README.md'), name).toContain(`\`${name}`);
    });

    it('the Node.js that `npm ci` brings to an old system node is the one the README names', () => {
      const runtime = /DEFAULT_RUNTIME = '(\d+)\./.exec(readFileSync(join(ROOT, 'scripts/runtime.mjs'), 'utf8'))?.[1];
      expect(runtime).toBeDefined();
      const readme = readDoc('README.md');
      const before = readme.slice(0, readme.indexOf('npm ci &&'));
      expect(before).toContain(`fetches Node ${runtime} for the project`);
      expect(before).toContain(`use Node ${runtime}`);
    });
  });

  describe('page_size maxima in prose', () => {
    /**
     * "its maximum is 25 on the two flow lists (`/v1/trends/flows` and `/v1/trends/mixed-flows`)
     * and 100 on every other list": the lists named are exactly those with the first maximum,
     * and every other list has the second.
     */
    function expectMaxima(text: string, where: string): void {
      const claim = /maximum is (\d+) on [^(]*\(([^)]*)\) and (\d+) on every other list/.exec(text.replace(/\s+/g, ' '));
      expect(claim, `${where} states the maxima`).not.toBeNull();
      const [, named = '', paths = '', other = ''] = claim ?? [];
      const lists = [...ops].flatMap(([key, operation]) => {
        const maximum = pageSizeMaximum(operation);
        return maximum === undefined ? [] : [{ path: key.split(' ')[1] ?? '', maximum }];
      });
      expect(lists.filter((list) => list.maximum === Number(named)).map((list) => list.path).sort(), where).toEqual(backticked(paths).sort());
      for (const list of lists.filter((l) => !backticked(paths).includes(l.path))) expect(list.maximum, `${where}: ${list.path}`).toBe(Number(other));
    }

    it('the OpenAPI document’s introduction and docs/api.md state the maxima the schemas have', () => {
      expectMaxima(isObject(doc.info) ? String(doc.info.description) : '', '/openapi.json info');
      expectMaxima(section(readDoc('docs/api.md'), 'Lists and pagination'), 'docs/api.md');
    });

    it('a tag that states a page_size maximum has it on every list of the tag', () => {
      for (const tag of Array.isArray(doc.tags) ? doc.tags.filter(isObject) : []) {
        const stated = /page_size at most (\d+)/.exec(String(tag.description))?.[1];
        if (stated === undefined) continue;
        for (const [key, operation] of ops) {
          const maximum = pageSizeMaximum(operation);
          if (maximum !== undefined && Array.isArray(operation.tags) && operation.tags.includes(tag.name)) expect(maximum, `${String(tag.name)}: ${key}`).toBe(Number(stated));
        }
      }
    });
  });
});
