import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';

/** The body as text, decompressed when the answer was sent compressed (decision 0074). */
export function textOf(response: Pick<LightMyRequestResponse, 'headers' | 'rawPayload' | 'body'>): string {
  const coding = response.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(response.rawPayload).toString('utf8');
  if (coding === 'gzip') return gunzipSync(response.rawPayload).toString('utf8');
  return response.body;
}
