import { Ajv } from 'ajv';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { UNAUTHORIZED_REASONS } from '../../src/modules/auth/index.js';
import { ERROR_STATUS, type ErrorBody } from '../../src/platform/errors.js';
import { errorSchema } from '../../src/platform/http/openapi.js';
import { textOf } from '../helpers/bodies.js';
import type { InjectedAnswer } from '../helpers/event-stream-inject.js';
import { type FuzzRequest, type FuzzSetup, requestArbitrary } from './openapi-arbitraries.js';
import type { Operation } from './openapi-operations.js';

/**
 * The property: whatever a client sends, the service answers below 500, and every answer of
 * 400 or more is `{"error":{"code","message","request_id"}}` with a code of the closed table
 * (src/platform/errors.ts) that belongs to its status. The test app's `inject` also checks every
 * answer against `/openapi.json`; what that check finds is a failure here too.
 */

const validateErrorBody = new Ajv({ strict: false, allErrors: true }).compile<ErrorBody>(errorSchema(UNAUTHORIZED_REASONS));

/**
 * What is wrong with an answer, or undefined when it keeps the property. `ownErrorFormats`: the
 * error statuses the operation documents in another format (the inject's check covers those).
 */
export function answerProblem(request: FuzzRequest, response: InjectedAnswer, ownErrorFormats: readonly number[] = []): string | undefined {
  const status = response.statusCode;
  if (status >= 500) return `status ${status}: ${response.body.slice(0, 300)}`;
  if (status < 400 || request.method === 'HEAD' || ownErrorFormats.includes(status)) return undefined;
  const contentType = String(response.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json')) return `status ${status} sent as "${contentType}": ${response.body.slice(0, 200)}`;
  let body: unknown;
  try {
    body = JSON.parse(textOf(response));
  } catch {
    return `status ${status}: the body is not JSON: ${response.body.slice(0, 200)}`;
  }
  if (!validateErrorBody(body)) return `status ${status}: not the error shape (${JSON.stringify(validateErrorBody.errors?.slice(0, 3))}): ${response.body.slice(0, 200)}`;
  const code = body.error.code;
  if (ERROR_STATUS[code] !== status) return `status ${status} carries code ${code}, which is ${ERROR_STATUS[code]}`;
  return undefined;
}

export interface FuzzTarget {
  inject(options: InjectOptions): Promise<InjectedAnswer>;
  /** Log lines of the app, to show the error behind a 5xx. */
  logs(): string;
}

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** fast-check's replay path of a counterexample (FUZZ_PATH). */
  path?: string | undefined;
  /** Count every failure and keep sending (the bench), rather than stop at the first and shrink it. */
  keepGoing?: boolean;
}

export interface FuzzStats {
  requests: number;
  statuses: Record<string, number>;
  /** Statuses by operation: shows that each one reached its handler (2xx), not only its guards. */
  byOperation: Record<string, Record<string, number>>;
  byKind: Record<string, number>;
  serverErrors: number;
  /** Answers of 400 or more outside the error shape, and any answer unlike the document. */
  outsideShape: number;
  /** With keepGoing: the first failures, each with the path that replays it. */
  failures: Array<{ path: string; problem: string; request: FuzzRequest }>;
}

export interface FuzzOutcome {
  stats: FuzzStats;
  /** Undefined when the property held; else the shrunk counterexample, its problem and the path that replays it. */
  failure: { path: string; problem: string; request: FuzzRequest | undefined; shrinks: number } | undefined;
}

/** Runs the property over the operations, sending each generated request through `target`. */
export async function runFuzz(target: FuzzTarget, operations: readonly Operation[], setup: FuzzSetup, options: FuzzOptions): Promise<FuzzOutcome> {
  const stats: FuzzStats = { requests: 0, statuses: {}, byOperation: {}, byKind: {}, serverErrors: 0, outsideShape: 0, failures: [] };
  const ownErrorFormats = new Map(operations.map((o) => [o.id, o.ownErrorFormats]));
  let index = 0;
  const property = fc.asyncProperty(requestArbitrary(operations, setup), async (request) => {
    const run = index;
    index += 1;
    const problem = await send(target, request, stats, ownErrorFormats.get(request.operation));
    if (problem === undefined) return;
    if (problem.startsWith('status 5')) stats.serverErrors += 1;
    else stats.outsideShape += 1;
    if (!options.keepGoing) throw new Error(problem);
    if (stats.failures.length < 20) stats.failures.push({ path: String(run), problem, request });
  });
  const details = await fc.check(property, {
    numRuns: options.runs,
    seed: options.seed,
    ...(options.path !== undefined ? { path: options.path } : {}),
  });
  if (!details.failed) return { stats, failure: undefined };
  const error = details.errorInstance;
  return {
    stats,
    failure: {
      path: details.counterexamplePath ?? '',
      problem: error instanceof Error ? error.message : fc.defaultReportMessage(details) ?? 'the property failed',
      request: details.counterexample?.[0],
      shrinks: details.numShrinks,
    },
  };
}

async function send(target: FuzzTarget, request: FuzzRequest, stats: FuzzStats, ownErrorFormats: readonly number[] = []): Promise<string | undefined> {
  stats.requests += 1;
  count(stats.byKind, request.kind);
  let response: InjectedAnswer;
  try {
    response = await target.inject({
      method: request.method,
      url: request.url,
      headers: request.headers,
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
  } catch (error) {
    // The test app's inject rejects an answer that breaks the OpenAPI document; a 5xx the
    // document does not list (a 503, say) is still a 5xx.
    const message = error instanceof Error ? error.message : String(error);
    const status = Number(/ → (\d{3})[: ]/.exec(message)?.[1] ?? 0);
    return status >= 500 ? `status ${status}: ${message}` : `not as documented: ${message}`;
  }
  count(stats.statuses, String(response.statusCode));
  count((stats.byOperation[request.operation] ??= {}), String(response.statusCode));
  const problem = answerProblem(request, response, ownErrorFormats);
  if (problem === undefined || response.statusCode < 500) return problem;
  const requestId = String(response.headers['x-request-id'] ?? '');
  const logged = target
    .logs()
    .split('\n')
    .filter((line) => requestId !== '' && line.includes(requestId) && line.includes('"err"'))
    .map((line) => line.slice(0, 600));
  return `${problem}\n  logged: ${logged.join('\n  ') || '(nothing)'}`;
}

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** FUZZ_RUNS, FUZZ_SEED and FUZZ_PATH, with the run size given for when FUZZ_RUNS is unset. */
export function fuzzOptionsFromEnv(env: NodeJS.ProcessEnv, defaultRuns: number): FuzzOptions {
  const runs = env.FUZZ_RUNS ? Number(env.FUZZ_RUNS) : defaultRuns;
  // A new seed per run explores new inputs each time; the failure message names it.
  const seed = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) throw new Error('FUZZ_RUNS and FUZZ_SEED must be integers');
  return { runs, seed, path: env.FUZZ_PATH || undefined, keepGoing: env.FUZZ_KEEP_GOING === '1' };
}

/** The failure message: what failed, on which request, and the command line that replays it. */
export function reproduction(dialect: string, options: FuzzOptions, failure: NonNullable<FuzzOutcome['failure']>): string {
  const replay = `FUZZ_SEED=${options.seed} FUZZ_RUNS=${options.runs} FUZZ_PATH=${failure.path} npx vitest run test/fuzz -t ${dialect}`;
  const request = failure.request === undefined ? '(none)' : describeRequest(failure.request);
  return `The fuzz test found a failure on ${dialect} (seed ${options.seed}, shrunk ${failure.shrinks} times):\n  ${request}\n  → ${shorten(failure.problem, 1_500)}\nReplay it with:\n  ${replay}`;
}

/** The failures counted with keepGoing, one per line, each with the FUZZ_PATH that replays it. */
export function failureList(stats: FuzzStats): string {
  return stats.failures
    .map(({ path, problem, request }) => `FUZZ_PATH=${path}: ${describeRequest(request)}\n    → ${shorten(problem, 600)}`)
    .join('\n');
}

/** One line: the operation, what is odd about the request, and the request itself, shortened. */
export function describeRequest(request: FuzzRequest): string {
  const body = request.payload === undefined ? '' : ` body ${shorten(request.payload, 300)}`;
  return `[${request.operation}, ${request.kind}] ${request.method} ${shorten(request.url, 300)} headers ${shorten(JSON.stringify(request.headers), 300)}${body}`;
}

/** Repeated runs written as `(a)×5000` or `(%F0%9F%92%A9)×101`, and the whole cut to `max` characters. */
export function shorten(text: string, max: number): string {
  const short = text.replace(/(.{1,12}?)\1{7,}/gsu, (run, unit: string) => `(${unit})×${run.length / unit.length}`);
  return short.length > max ? `${short.slice(0, max)}…` : short;
}
