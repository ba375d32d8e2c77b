import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generate, type GeneratedFiles } from './codegen/emit.js';
import { ENDPOINTS, TYPES_ALSO_FROM } from './endpoints.js';
import { documentFromServer, documentFromSource } from './openapi-document.js';

/**
 * `npm run generate` (in packages/client): writes src/generated/ from the server's OpenAPI
 * document and the method table in endpoints.ts.
 *
 *   npm run generate                              the document of this repository's server source
 *   npm run generate -- --from http://host:8080   the document a running server serves
 *   npm run generate -- --check                   exit 1 when the checked-in files differ
 */
export const GENERATED_FILES: Record<keyof GeneratedFiles, string> = {
  types: fileURLToPath(new URL('../src/generated/types.ts', import.meta.url)),
  namespaces: fileURLToPath(new URL('../src/generated/namespaces.ts', import.meta.url)),
  operations: fileURLToPath(new URL('../src/generated/operations.ts', import.meta.url)),
};

/** The generated sources for this repository's server, as they should be checked in. */
export async function generatedFromSource(): Promise<GeneratedFiles> {
  return generate(await documentFromSource(), ENDPOINTS, TYPES_ALSO_FROM);
}

async function main(args: string[]): Promise<void> {
  const from = args.includes('--from') ? args[args.indexOf('--from') + 1] : undefined;
  const files = generate(from ? await documentFromServer(from) : await documentFromSource(), ENDPOINTS, TYPES_ALSO_FROM);
  const entries = Object.entries(GENERATED_FILES) as Array<[keyof GeneratedFiles, string]>;
  if (args.includes('--check')) {
    const stale = entries.filter(([kind, path]) => readFileSync(path, 'utf8') !== files[kind]).map(([, path]) => path);
    if (stale.length > 0) {
      console.error(`Out of date, run npm run generate: ${stale.join(', ')}`);
      process.exitCode = 1;
    }
    return;
  }
  for (const [kind, path] of entries) writeFileSync(path, files[kind]);
  console.log(`Wrote ${entries.map(([, path]) => path).join(', ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
