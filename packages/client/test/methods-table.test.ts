import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../scripts/endpoints.js';
import { SportsDataClient } from '../src/index.js';
import { ROOT } from './helpers/run.js';

/** The README's Methods table: its rows by namespace (`api.results`, `api`), each row's text. */
function methodsTable(): Map<string, string> {
  const readme = readFileSync(join(ROOT, 'packages/client/README.md'), 'utf8');
  const start = readme.indexOf('\n### Methods\n');
  expect(start, 'the README has a Methods section').toBeGreaterThan(0);
  const section = readme.slice(start, readme.indexOf('\n#', start + 1));
  return new Map([...section.matchAll(/^\| `(api(?:\.\w+)?)` \| (.+) \|$/gm)].map(([, namespace = '', text = '']) => [namespace, text]));
}

/** The methods a row names: `clv(…)`, and those hung below another, `.create(…)`, as `apiKeys.create`. */
function namedIn(text: string): string[] {
  const names: string[] = [];
  let parent = '';
  for (const [, dot, name = ''] of text.matchAll(/`(\.?)(\w+)\(/g)) {
    if (dot === '') parent = name;
    names.push(dot === '' ? name : `${parent}.${name}`);
  }
  return names;
}

/**
 * The README lists every method the SDK has, and nothing it has not: it once left out the
 * results, the historical events, the odds history and the check endpoint.
 */
describe('the README’s Methods table', () => {
  it('names every method of every namespace, in the row of its namespace, and no other', () => {
    const table = methodsTable();
    const expected = new Map<string, string[]>();
    for (const [name] of ENDPOINTS) {
      const [namespace = '', ...path] = name.split('.');
      expected.set(`api.${namespace}`, [...(expected.get(`api.${namespace}`) ?? []), path.join('.')]);
    }
    expect([...table.keys()].filter((namespace) => namespace !== 'api').sort()).toEqual([...expected.keys()].sort());
    for (const [namespace, methods] of expected) expect(namedIn(table.get(namespace) ?? '').sort(), namespace).toEqual([...methods].sort());
  });

  it('names the client’s own members, which it has', () => {
    const row = methodsTable().get('api') ?? '';
    expect(namedIn(row)).toEqual(['logout', 'oddsStream']);
    expect(row).toContain('`rateLimit`');
    const api = new SportsDataClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sdk_x' });
    expect(typeof api.logout).toBe('function');
    expect(typeof api.oddsStream).toBe('function');
    expect('rateLimit' in api).toBe(true);
  });
});
