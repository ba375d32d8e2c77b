import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { InjectOptions } from 'fastify';
import { injectEventStream } from '../../test/helpers/event-stream-inject.js';

/**
 * Records what the API answers to a fixed set of requests (bench/answers/requests.ts), on a fresh
 * SQLite database with the demo dataset, a fixed clock and fixed client names and tiers, so that
 * two builds of the app can be compared answer by answer: status, headers (whatever their order)
 * and body. What differs between two runs of one build whatever the code (request ids, the
 * random credentials and client ids, the Date header, process metrics) is masked.
 *
 * The app is loaded from a checkout's `src/` (default: this one), so that a refactoring is checked
 * against the code before it: `--dir` names the other checkout, which needs its node_modules.
 */

/** One answer as recorded: everything a client could see, the volatile parts masked. */
export interface Answer {
  label: string;
  request: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The same instant every run: the demo data, tokens, windows and dates derive from it. */
export const RECORDED_AT = Date.parse('2026-06-01T12:00:30.000Z');

const ADMIN_TOKEN = 'answers-admin-token-that-is-at-least-32-bytes';
const JWT_SECRET = 'answers-jwt-secret-that-is-at-least-32-bytes!';

/** What the recorder uses of a checkout: names and shapes that have been stable for a long time. */
interface Checkout {
  app: typeof import('../../src/app.js');
  config: typeof import('../../src/config.js');
  context: typeof import('../../src/context.js');
  clock: typeof import('../../src/platform/clock.js');
  database: typeof import('../../src/platform/db/database.js');
  migrations: typeof import('../../src/platform/db/migrations.js');
  demo: typeof import('../../src/modules/demo/demo-data.js');
}

async function loadCheckout(dir: string): Promise<Checkout> {
  const load = (path: string) => import(pathToFileURL(join(dir, 'src', path)).href);
  return {
    app: await load('app.ts'),
    config: await load('config.ts'),
    context: await load('context.ts'),
    clock: await load('platform/clock.ts'),
    database: await load('platform/db/database.ts'),
    migrations: await load('platform/db/migrations.ts'),
    demo: await load('modules/demo/demo-data.ts'),
  };
}

/** What a request list sees: a way to send a request and keep its answer, and the clients made for it. */
export interface Recorder {
  /** Sends a request, records its answer under `label`, and returns it (JSON parsed when it is JSON). */
  send(label: string, options: InjectOptions): Promise<{ status: number; json: unknown; headers: Record<string, unknown> }>;
  /** Sends a request to an event stream: its head and its first bytes are recorded. */
  stream(label: string, options: InjectOptions): Promise<void>;
  /** A client made through the service the admin API uses: fixed name, tier and auth method. */
  client(name: string, tier: 'free' | 'pro' | 'enterprise', authMethod: 'api_key' | 'oauth' | 'both'): Promise<{ id: string; apiKey: string; secret: string }>;
  readonly adminHeaders: Record<string, string>;
}

export type RequestList = (recorder: Recorder) => Promise<void>;

/** Runs the request list against the app of `dir` and returns every answer, in order. */
export async function recordAnswers(dir: string, requests: RequestList): Promise<Answer[]> {
  const checkout = await loadCheckout(dir);
  const url = 'sqlite::memory:';
  const config = checkout.config.loadConfig({
    DATABASE_URL: url,
    DATA_DIR: '/nonexistent-answers-data-dir',
    JWT_SECRET,
    ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    // Long enough that no flush or purge runs while the requests are sent: usage comes from memory.
    USAGE_FLUSH_MS: '600000',
    // The recorded answers are of the demo as made: its prices stay still.
    DEMO_TICKER_PER_SECOND: '0',
  });
  const database = checkout.database.openDatabase(url, { poolSize: 4 });
  await checkout.migrations.migrateToLatest(database.db);
  const clock = checkout.clock.manualClock(RECORDED_AT);
  const ctx = checkout.context.createContext({ config, database, clock });
  const silent = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const app = await checkout.app.buildApp(ctx, { logStream: silent });
  await ctx.background.start(app.log);
  await app.ready();
  await checkout.demo.loadDemoData(ctx, { scale: 0.05 });
  const answers: Answer[] = [];
  const masks = new Map<string, string>();
  const recorder: Recorder = {
    adminHeaders: { authorization: `Bearer ${ADMIN_TOKEN}` },
    async send(label, options) {
      const response = await app.inject(options);
      const answer = answerOf(label, options, response.statusCode, response.headers, response.rawPayload, masks);
      answers.push(answer);
      const type = String(response.headers['content-type'] ?? '');
      const json = type.includes('json') && response.headers['content-encoding'] === undefined && response.body !== '' ? safeJson(response.body) : undefined;
      return { status: response.statusCode, json, headers: response.headers };
    },
    async stream(label, options) {
      const response = await injectEventStream(app, options);
      answers.push(answerOf(label, options, response.statusCode, response.headers, response.rawPayload, masks));
    },
    async client(name, tier, authMethod) {
      // A second apart: lists ordered by creation time then by (random) id keep one order.
      clock.advance(1000);
      const { account, credentials } = await ctx.clients.create({ name, tier, authMethod });
      masks.set(account.id, `<client ${name}>`);
      masks.set(account.tenantId, `<tenant of ${name}>`);
      return { id: account.id, apiKey: credentials.apiKey, secret: credentials.clientSecret };
    },
  };
  try {
    await requests(recorder);
  } finally {
    await app.close();
    await ctx.background.stop();
    await database.close();
  }
  return answers;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Headers whose value differs from run to run of one build. */
const VOLATILE_HEADERS = new Set(['date', 'x-request-id']);

/** Other bodies longer than this are kept as a digest (the files, the docs assets). */
const LONGEST_BODY = 64 * 1024;

function answerOf(
  label: string,
  options: InjectOptions,
  status: number,
  rawHeaders: Record<string, unknown>,
  payload: Buffer,
  masks: ReadonlyMap<string, string>,
): Answer {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(rawHeaders).sort()) {
    const value = rawHeaders[name];
    // The metrics hold process figures: their length varies too.
    const volatile = VOLATILE_HEADERS.has(name) || (name === 'content-length' && String(options.url).startsWith('/metrics'));
    headers[name] = volatile ? '<volatile>' : mask(Array.isArray(value) ? value.join(', ') : String(value), masks);
  }
  const request = `${String(options.method ?? 'GET')} ${String(options.url)}`;
  return { label, request: mask(request, masks), status, headers, body: bodyOf(rawHeaders, payload, masks, String(options.url)) };
}

function bodyOf(headers: Record<string, unknown>, payload: Buffer, masks: ReadonlyMap<string, string>, url: string): unknown {
  if (payload.length === 0) return '';
  const type = String(headers['content-type'] ?? '');
  // Compressed bytes: their digest (zlib is deterministic for one input and level).
  if (headers['content-encoding'] !== undefined) return { bytes: payload.length, sha256: digest(payload) };
  const text = payload.toString('utf8');
  if (url.startsWith('/metrics')) return metricsOf(text);
  // JSON whole, whatever its size (the OpenAPI document is compared field by field).
  if (type.includes('json') && !type.includes('ndjson')) {
    const parsed = safeJson(text);
    if (parsed !== undefined) return maskJson(parsed, masks);
  }
  if (text.length > LONGEST_BODY) return { chars: text.length, sha256: digest(Buffer.from(mask(text, masks))) };
  return mask(text, masks);
}

/** Of the metrics, the series a request decides (counts), not those of the process (memory, CPU, time). */
function metricsOf(text: string): string[] {
  return text.split('\n').filter((line) => /^(http_requests_total|auth_failures_total|rate_limit_rejections_total)\{/.test(line));
}

function digest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const PATTERNS: Array<[RegExp, string]> = [
  [/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '<jwt>'],
  [/\b(sdk|sds|sdr)_[0-9A-Za-z]{49}\b/g, '<$1 credential>'],
  [/\b(sdk|sds|sdr)_…[0-9A-Za-z]{4}/g, '<$1 preview>'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'],
];

function mask(text: string, masks: ReadonlyMap<string, string>): string {
  let masked = text;
  for (const [value, name] of masks) masked = masked.split(value).join(name);
  for (const [pattern, replacement] of PATTERNS) masked = masked.replace(pattern, replacement);
  return masked;
}

function maskJson(value: unknown, masks: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return mask(value, masks);
  if (Array.isArray(value)) return value.map((item) => maskJson(item, masks));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskJson(item, masks)]));
  }
  return value;
}
