import { describe, expect, it } from 'vitest';
import { ENV } from '../../src/config-env.js';
import { keyword, loadConfig } from '../../src/config.js';
import { expectGeneratedSection } from '../helpers/generated-docs.js';

const OPERATIONS_MD = new URL('../../docs/operations.md', import.meta.url);
const VARIABLES = Object.entries(ENV.properties);

/** Every variable `loadConfig` reads, found by giving it an environment that records each name asked for. */
function variablesRead(): Set<string> {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get(_target, name) {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    },
  );
  loadConfig(env);
  return read;
}

const option = (schema: object, name: string): unknown => Object.getOwnPropertyDescriptor(schema, name)?.value;
const number = (n: unknown) => (typeof n === 'number' ? n.toLocaleString('en-US') : String(n));

/** The default cell: the value an unset variable takes (with an integer's bounds), or what `x-default` says in words. */
function defaultCell(schema: object): string {
  const value = option(schema, 'default');
  if (value === undefined) return String(option(schema, 'x-default') ?? 'unset');
  const maximum = option(schema, 'maximum');
  return maximum === undefined ? `\`${String(value)}\`` : `\`${String(value)}\` (${number(option(schema, 'minimum'))} to ${number(maximum)})`;
}

/** The meaning cell: the description, and a closed list's values. */
function meaningCell(schema: object): string {
  const description = String(option(schema, 'description'));
  const options = option(schema, 'anyOf');
  return Array.isArray(options) ? `${description}: ${options.map((o: object) => `\`${String(option(o, 'const'))}\``).join(', ')}` : description;
}

/** docs/operations.md#configuration, row by row, from the schema. */
function configurationTable(): string[] {
  return ['| variable | default | meaning |', '|---|---|---|', ...VARIABLES.map(([name, schema]) => `| \`${name}\` | ${defaultCell(schema)} | ${meaningCell(schema)} |`)];
}

describe('the configuration schema: one list of variables, and the docs table is generated from it', () => {
  it('docs/operations.md#configuration is the schema', () => {
    expectGeneratedSection(OPERATIONS_MD, 'configuration', configurationTable());
  });

  it('loadConfig reads every variable of the schema, and no other', () => {
    expect([...variablesRead()].sort()).toEqual(VARIABLES.map(([name]) => name).sort());
  });

  it("a variable set to its schema default configures what leaving it unset does, and one out of its bounds names it", () => {
    const unset = loadConfig({});
    let checked = 0;
    for (const [name, schema] of VARIABLES) {
      const value = keyword(schema, 'default');
      if (value === undefined) continue;
      expect(loadConfig({ [name]: String(value) }), `${name}=${String(value)}`).toEqual(unset);
      const maximum = keyword(schema, 'maximum');
      if (typeof maximum === 'number') expect(() => loadConfig({ [name]: String(maximum + 1) }), name).toThrow(new RegExp(`${name} must be an? (integer|number) from`));
      checked += 1;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('an empty variable is an unset one, for every variable', () => {
    expect(loadConfig(Object.fromEntries(VARIABLES.map(([name]) => [name, ''])))).toEqual(loadConfig({}));
  });
});
