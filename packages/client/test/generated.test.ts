import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate } from '../scripts/codegen/emit.js';
import { v1Operations } from '../scripts/codegen/operations.js';
import { ENDPOINTS, NOT_METHODS } from '../scripts/endpoints.js';
import { GENERATED_FILES, generatedFromSource } from '../scripts/generate.js';
import { documentFromSource } from '../scripts/openapi-document.js';
import { VERSION } from '../src/version.js';

/**
 * The SDK's types and methods are generated from the server's OpenAPI document, and
 * stay so. When this fails after a change to the server, run
 * `npm run -w @sports-data/client generate` (and add a line to scripts/endpoints.ts for a new endpoint).
 */
describe('the generated types and methods', () => {
  it('are what the generator makes of the server’s document today', async () => {
    const files = await generatedFromSource();
    for (const [kind, path] of Object.entries(GENERATED_FILES) as Array<[keyof typeof files, string]>) {
      expect(readFileSync(path, 'utf8'), `${path} is out of date: run npm run -w @sports-data/client generate`).toBe(files[kind]);
    }
  });

  it('cover every /v1 operation of the document: a method, or a reason why not', async () => {
    const document = await documentFromSource();
    const mapped = new Set(ENDPOINTS.map(([, operation]) => operation));
    const unmapped = v1Operations(document).filter((operation) => !mapped.has(operation) && !(operation in NOT_METHODS));
    expect(unmapped, 'add these to scripts/endpoints.ts').toEqual([]);
    // No stale exclusion either.
    const all = new Set(v1Operations(document));
    expect(Object.keys(NOT_METHODS).filter((operation) => !all.has(operation))).toEqual([]);
  });

  it('fail loudly on what the generator does not support, rather than guess', () => {
    const document = { paths: { '/v1/x': { get: { responses: { 200: { content: { 'application/json': { schema: { type: 'tuple' } } } } } } } } };
    expect(() => generate(document, [['x', 'GET /v1/x']], [])).toThrow(/unsupported schema type tuple/);
    expect(() => generate(document, [['x', 'GET /v1/missing']], [])).toThrow(/has no operation GET \/v1\/missing/);
  });

  it('the VERSION the client sends is the package’s', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
