import { type Readable, pipeline, type Transform } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, RouteOptions } from 'fastify';
import { hooksOf } from './route-hooks.js';

/**
 * Response compression (decision 0074). The level and threshold come from `npm run bench -- --only
 * compression`: see the decision for the figures behind them.
 */
export const COMPRESSION = {
  /** Answers below this many bytes are sent as they are: a few hundred bytes saved cost more CPU than they save on the wire. */
  thresholdBytes: 1024,
  /** Brotli quality (0–11). */
  brotliQuality: 5,
  /** gzip level (1–9). */
  gzipLevel: 6,
} as const;

/** zlib's options for each coding, at the chosen levels: every answer and the page codings use the same. */
export const BROTLI_OPTIONS = {
  params: { [constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
export const GZIP_OPTIONS = { level: COMPRESSION.gzipLevel };

/** The codings offered, best first: zstd and deflate are left out (few clients; deflate's framing is ambiguous). */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/**
 * Compresses every answer of 1 KB or more whose client accepts `br` or `gzip` and whose type is
 * text or JSON, in one onSend hook appended to each route as it is added (so that it runs after
 * the route's and its scope's own). It decides by size first: a small answer, the hot path of
 * authenticated calls, costs a length check and nothing else (decision 0151). Request bodies are not
 * decompressed (a small gzip body can inflate to far more than the body limit's worth of work).
 * Registered before the routes.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    route.onSend = [...hooksOf(route.onSend), compressAnswer];
  });
}

/**
 * The rules, whoever compressed the answer:
 * - RFC 9110 §8.8.3: a strong ETag names one sequence of bytes, and the compressed bytes are not the
 *   identity ones: a compressed answer's tag becomes weak (`W/"…"`, as nginx does). Weak comparison,
 *   which If-None-Match uses, still matches it with the identity tag: the same content.
 * - RFC 9110 §12.5.5: an answer large enough to be compressed depends on Accept-Encoding, also when
 *   this client asked for none: `Vary: Accept-Encoding`, so that no cache hands one client's coding
 *   to another that cannot read it.
 * A list page comes already coded (page-codings.ts); a file comes as a stream, compressed as it goes.
 */
const compressAnswer: onSendHookHandler = (request, reply, payload, done) => {
  if (isCoded(reply)) {
    addVary(reply);
    weakenTag(reply);
    return done(null, payload);
  }
  // A stream's length is not known beforehand: a file, large.
  const stream = isStream(payload);
  if (!(stream || sizeOf(payload) >= COMPRESSION.thresholdBytes) || !COMPRESSIBLE.test(String(reply.getHeader('content-type')))) {
    return done(null, payload);
  }
  addVary(reply);
  const coding = negotiate(request);
  if (coding === undefined) return done(null, payload);
  reply.header('content-encoding', coding);
  weakenTag(reply);
  if (stream) {
    // The length is the identity one: chunked instead. When the file fails, pipeline destroys the
    // coder with the error, and Fastify, sending the coder, cuts the connection (and logs it): the
    // client sees a broken transfer rather than a short file that looks whole.
    reply.removeHeader('content-length');
    const coder = compressor(coding);
    pipeline(payload, coder, () => {});
    return done(null, coder);
  }
  const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : (payload as Buffer);
  compressBytes(coding, bytes).then((compressed) => {
    reply.header('content-length', String(compressed.length));
    done(null, compressed);
  }, done);
};

/**
 * Types worth compressing: text and JSON (NDJSON too). Never an event stream: a compressor would
 * hold each event until its buffer fills.
 */
const COMPRESSIBLE = /^text\/(?!event-stream)|json(?:;|$)/i;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** `body` in `coding`, compressed off the event loop (zlib's thread pool). */
export function compressBytes(coding: Coding, body: Buffer): Promise<Buffer> {
  return coding === 'br' ? brotliAsync(body, BROTLI_OPTIONS) : gzipAsync(body, GZIP_OPTIONS);
}

function compressor(coding: Coding): Transform {
  return coding === 'br' ? createBrotliCompress(BROTLI_OPTIONS) : createGzip(GZIP_OPTIONS);
}

function isCoded(reply: FastifyReply): boolean {
  const coding = reply.getHeader('content-encoding');
  return typeof coding === 'string' && coding !== 'identity';
}

/** An answer's length in bytes when it is bytes (a string or a Buffer); 0 for nothing. */
function sizeOf(payload: unknown): number {
  if (typeof payload === 'string') return Buffer.byteLength(payload);
  return Buffer.isBuffer(payload) ? payload.length : 0;
}

function isStream(payload: unknown): payload is Readable {
  return typeof payload === 'object' && payload !== null && typeof (payload as Readable).pipe === 'function';
}

function weakenTag(reply: FastifyReply): void {
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string') reply.header('etag', weakTag(etag));
}

export function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const current = typeof vary === 'string' ? vary : '';
  if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(current)) reply.header('vary', current === '' ? 'accept-encoding' : `${current}, accept-encoding`);
}

export function weakTag(etag: string): string {
  return etag.startsWith('W/') ? etag : `W/${etag}`;
}

/**
 * The coding a client prefers among ours (RFC 9110 §12.5.3): the highest q-value above 0, `*`
 * standing for any coding not named; on a tie, br. None → identity.
 */
export function negotiate(request: FastifyRequest): Coding | undefined {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string' || header === '') return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name !== '' && Number.isFinite(weight)) weights.set(name === 'x-gzip' ? 'gzip' : name, weight);
  }
  let best: Coding | undefined;
  let bestWeight = 0;
  for (const coding of CODINGS) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}
