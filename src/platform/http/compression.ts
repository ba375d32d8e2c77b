import { constants } from 'node:zlib';
import compress from '@fastify/compress';
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

/** zlib's options for each coding, at the chosen levels: the plugin and the page codings use the same. */
export const BROTLI_OPTIONS = {
  params: { [constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
export const GZIP_OPTIONS = { level: COMPRESSION.gzipLevel };

/** The codings offered, best first: zstd and deflate are left out (few clients; deflate's framing is ambiguous). */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/**
 * Compresses every answer of 1 KB or more whose client accepts `br` or `gzip`, through
 * @fastify/compress. Request bodies are not decompressed (a small gzip body can inflate to far more
 * than the body limit's worth of work). Registered before the routes: the plugin hooks each route
 * as it is added.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: [...CODINGS],
    threshold: COMPRESSION.thresholdBytes,
    brotliOptions: BROTLI_OPTIONS,
    zlibOptions: GZIP_OPTIONS,
    globalDecompression: false,
  });
  // After the plugin's onRoute hook, so that this onSend runs after its onSend.
  app.addHook('onRoute', (route: RouteOptions) => {
    route.onSend = [...hooksOf(route.onSend), varyAndWeakenTag];
  });
}

/**
 * Two rules for every answer, whoever compressed it:
 * - RFC 9110 §8.8.3: a strong ETag names one sequence of bytes, and the compressed bytes are not the
 *   identity ones: a compressed answer's tag becomes weak (`W/"…"`, as nginx does). Weak comparison,
 *   which If-None-Match uses, still matches it with the identity tag: the same content.
 * - RFC 9110 §12.5.5: an answer large enough to be compressed depends on Accept-Encoding, also when
 *   this client asked for none: `Vary: Accept-Encoding`, so that no cache hands one client's coding
 *   to another that cannot read it.
 */
const varyAndWeakenTag: onSendHookHandler = (_request, reply, payload, done) => {
  const coded = isCoded(reply);
  if (coded || sizeOf(payload) >= COMPRESSION.thresholdBytes) addVary(reply);
  const etag = reply.getHeader('etag');
  if (coded && typeof etag === 'string') reply.header('etag', weakTag(etag));
  done(null, payload);
};

function isCoded(reply: FastifyReply): boolean {
  const coding = reply.getHeader('content-encoding');
  return typeof coding === 'string' && coding !== 'identity';
}

function sizeOf(payload: unknown): number {
  if (typeof payload === 'string') return Buffer.byteLength(payload);
  return Buffer.isBuffer(payload) ? payload.length : 0;
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
