import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../platform/errors.js';
import { describeBytes, type JsonLimits, readBoundedJson } from '../../platform/json-limits.js';

/**
 * The largest dataset an import accepts, over HTTP and from a file (decision 0062). 64 MiB is
 * about 340,000 items of typical rows (2.7 times the scale-1 demo dataset); parsed, such a body
 * takes about 1.3 times its size in memory. The other limits cost a real dataset nothing (it uses
 * 4 levels, fewer than 100 field names (decision 0236), one object per 186 bytes and one value per 19 bytes) and keep
 * the worst body within a few hundred MB: a 100 MB body of brackets took 5.2 GB.
 */
export const IMPORT_LIMITS: JsonLimits = {
  maxBytes: 64 * 1024 * 1024,
  maxDepth: 8,
  maxContainers: 2_000_000,
  maxMembers: 8_000_000,
  maxFieldNames: 128,
};

const LIMIT_TEXT = describeBytes(IMPORT_LIMITS.maxBytes);

/**
 * The import route's JSON parser (registered in its scope only): the body is scanned against
 * IMPORT_LIMITS chunk by chunk as it arrives and refused at the first limit crossed, before
 * anything is parsed; then parsed by Fastify's parser (prototype-poisoning protection). A
 * declared Content-Length over the limit is refused without reading.
 */
export function registerDatasetParser(app: FastifyInstance, limits: JsonLimits = IMPORT_LIMITS, name = 'dataset'): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request, payload, done) => {
    if (Number(request.headers['content-length']) > limits.maxBytes) {
      done(new ApiError('PAYLOAD_TOO_LARGE', `${name} is larger than ${describeBytes(limits.maxBytes)}`), undefined);
      return;
    }
    readBoundedJson(payload, limits, name).then(
      // An empty body is no body, as on every other route (json-bodies.ts).
      (text) => (text.trim() === '' ? done(null, undefined) : parseJson(request, text, done)),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error)), undefined),
    );
  });
}

/** `sportsdata import FILE`: the file under the same limits, refused by its size before it is read. */
export async function readDatasetFile(file: string, limits: JsonLimits = IMPORT_LIMITS): Promise<unknown> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    throw new Error(`cannot read ${file}${codeOf(error)}`);
  }
  if (size > IMPORT_LIMITS.maxBytes) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `${file} is larger than ${LIMIT_TEXT}, the most an import takes: split it into several imports`);
  }
  const stream = createReadStream(file);
  let text: string;
  try {
    text = await readBoundedJson(stream, limits, file);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new Error(`cannot read ${file}${codeOf(error)}`);
  } finally {
    stream.destroy();
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError('BAD_REQUEST', `${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function codeOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? ` (${code})` : '';
}
