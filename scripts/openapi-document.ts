import { resolve } from 'node:path';
import { documentBytesFromSource } from '../packages/client/scripts/openapi-document.js';

/**
 * `npx tsx scripts/openapi-document.ts [ROOT]`: writes to stdout, byte for byte, the body that
 * `GET /openapi.json` answers for the server source under ROOT (default: this checkout), built in
 * this process on an in-memory SQLite database. `scripts/same-openapi.sh` runs it on two commits
 * and compares the bytes, so that a change meant to keep the API as it is can show it did.
 */
process.stdout.write(await documentBytesFromSource(resolve(process.argv[2] ?? '.')));
