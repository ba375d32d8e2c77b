import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/platform/http/types.js';

/** What a test reads of an answer: enough for the error-shape checks and the decoding of bodies. */
export type InjectedAnswer = Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body' | 'rawPayload'>;

/** How long a stream's first bytes may take. */
const FIRST_BYTES_MS = 5000;

/**
 * `app.inject` for an operation that answers an event stream, which never ends by itself (an
 * inject would wait for ever): the answer's head, and its body — the whole of an error, the
 * first chunk of a stream (then the stream is abandoned).
 */
export async function injectEventStream(app: App, options: InjectOptions): Promise<InjectedAnswer> {
  const abort = new AbortController();
  const response = await app.inject({ ...options, payloadAsStream: true, signal: abort.signal });
  const chunks: Buffer[] = [];
  const stream = response.stream();
  const streaming = response.statusCode === 200;
  const timer = setTimeout(() => abort.abort(), FIRST_BYTES_MS);
  try {
    for await (const chunk of stream) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      if (streaming) break;
    }
  } catch {
    // aborted: the first bytes did not come in time (the body stays empty)
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  const rawPayload = Buffer.concat(chunks);
  return { statusCode: response.statusCode, headers: response.headers, body: rawPayload.toString('utf8'), rawPayload };
}
