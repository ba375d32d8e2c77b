import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addVary } from './compression.js';
import { ifNoneMatch } from './etag.js';

/**
 * A file answered as a stream: written chunk by chunk as its source yields them, so that its size
 * never shows in the server's memory. Compression (when the client accepts it) streams too: the
 * plugin pipes a stream payload through zlib rather than collecting it (decision 0126).
 */
export interface StreamedFile {
  /** Known before the first byte: a digest of what the file will hold. */
  etag: string;
  /** The name a browser or `curl -OJ` saves it under. */
  filename: string;
  contentType: string;
  /** The bytes, read lazily: called only when the file is sent (not on a 304). */
  chunks(): AsyncIterable<string>;
}

/**
 * Bytes that may wait between the database and the socket (beyond the chunk being written): a
 * slow client slows the reads (backpressure) instead of filling the heap.
 */
const BUFFERED_BYTES = 64 * 1024;

/** Sends a file, or 304 to a GET whose If-None-Match names its tag. */
export function sendFile(request: FastifyRequest, reply: FastifyReply, file: StreamedFile): FastifyReply {
  reply.header('etag', file.etag);
  // The bytes depend on Accept-Encoding whether or not this client asked for a coding.
  addVary(reply);
  reply.header('content-disposition', `attachment; filename="${file.filename}"`);
  if (request.method === 'GET' && ifNoneMatch(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
  const source = file.chunks();
  const body = Readable.from(bytes(source), { objectMode: false, highWaterMark: BUFFERED_BYTES });
  return reply.type(file.contentType).send(body);
}

async function* bytes(chunks: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) if (chunk.length > 0) yield Buffer.from(chunk, 'utf8');
}
