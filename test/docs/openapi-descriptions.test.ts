import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../helpers/harness.js';


type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasDescription = (value: unknown) => isObject(value) && typeof value.description === 'string' && value.description.trim().length > 0;

/**
 * Every place in a schema where a property is named: `properties` of any object schema, at any
 * depth (inside items, unions, allOf, components). Each such property must say what it is.
 */
function undescribedProperties(schema: unknown, at: string, found: string[]): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => undescribedProperties(item, `${at}/${i}`, found));
    return;
  }
  if (!isObject(schema)) return;
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!hasDescription(property)) found.push(`${at}/properties/${name}`);
    }
  }
  for (const [key, value] of Object.entries(schema)) {
    // Examples are data, not schemas: their keys are field values.
    if (key === 'example' || key === 'examples' || key === 'default' || key === 'const' || key === 'enum') continue;
    undescribedProperties(value, `${at}/${key}`, found);
  }
}

/**
 * Every field of the OpenAPI document has a description: the properties of request and
 * response bodies at any depth, and every parameter. One run: the document does not depend on
 * the database.
 */
describe('descriptions in /openapi.json', () => {
  let t: Harness;
  let doc: Json;
  beforeAll(async () => {
    t = await harness({ dialect: 'sqlite' });
    doc = (await t.anonymous.get('/openapi.json')).json<Json>();
  });
  afterAll(async () => t.close());

  it('every schema property, in every request, response and component, has a description', () => {
    const found: string[] = [];
    undescribedProperties(doc.paths, '#/paths', found);
    undescribedProperties(doc.components, '#/components', found);
    expect(found).toEqual([]);
  });

  it('every parameter has a description', () => {
    const found: string[] = [];
    for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
      for (const [method, operation] of Object.entries(isObject(item) ? item : {})) {
        const parameters = isObject(operation) && Array.isArray(operation.parameters) ? operation.parameters : [];
        for (const parameter of parameters) if (!hasDescription(parameter)) found.push(`${method.toUpperCase()} ${path} ${JSON.stringify(parameter)}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('the walk finds what it looks for: a property without a description is reported', () => {
    const found: string[] = [];
    undescribedProperties({ a: { type: 'object', properties: { ok: { type: 'string', description: 'x' }, bare: { type: 'string' } } } }, '#', found);
    undescribedProperties({ items: { anyOf: [{ type: 'object', properties: { deep: {} } }] } }, '#', found);
    expect(found).toEqual(['#/a/properties/bare', '#/items/anyOf/0/properties/deep']);
  });
});
