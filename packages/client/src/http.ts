import { AttemptTimeout, attemptSignal } from './abort.js';
import { SportsDataError } from './errors.js';
import { retryAfterSeconds } from './rate-limit.js';

/** One HTTP attempt. Credentials are in `headers`, never in `url`. */
export interface Attempt {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs: number;
}

export interface HttpDeps {
  fetch: typeof fetch;
  now: () => number;
  /** Sees every answer's headers (the client keeps the rate-limit ones). */
  observe: (headers: Headers) => void;
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Sends one attempt and reads its answer: the parsed JSON of a 2xx (undefined when it has no
 * body), or a thrown {@link SportsDataError}. A caller's abort rejects with the signal's reason.
 */
export async function send(deps: HttpDeps, attempt: Attempt): Promise<unknown> {
  const { signal, done } = attemptSignal(attempt.signal, attempt.timeoutMs);
  let status = 0;
  let text: string;
  let headers: Headers;
  try {
    // Redirects are not followed: a token goes to the base URL and nowhere else.
    const response = await deps.fetch(attempt.url, { method: attempt.method, headers: attempt.headers, body: attempt.body, signal, redirect: 'manual' });
    status = response.status;
    headers = response.headers;
    deps.observe(headers);
    text = await response.text();
  } catch (error) {
    if (attempt.signal?.aborted) throw attempt.signal.reason;
    const timedOut = signal.reason instanceof AttemptTimeout;
    throw new SportsDataError({
      status,
      code: timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
      message: timedOut ? `${attempt.method} ${pathOf(attempt.url)}: ${(signal.reason as AttemptTimeout).message}` : `${attempt.method} ${pathOf(attempt.url)}: ${messageOf(error)}`,
      cause: error,
    });
  } finally {
    done();
  }
  return answerOf(status, headers, text, deps.now(), `${attempt.method} ${pathOf(attempt.url)}`);
}

/** The parsed JSON of a 2xx, or the thrown {@link SportsDataError} its status and body make. */
export function answerOf(status: number, headers: Headers, text: string, now: number, what: string): unknown {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  if (status >= 200 && status < 300 && (text === '' || typeof body !== 'string')) return body;
  const requestId = headers.get('x-request-id') ?? undefined;
  const error = isJson(body) && isJson(body.error) ? body.error : undefined;
  if (status >= 300 && error && typeof error.code === 'string' && typeof error.message === 'string') {
    return raise({
      status,
      code: error.code,
      message: error.message,
      reason: typeof error.reason === 'string' ? error.reason : undefined,
      request_id: typeof error.request_id === 'string' ? error.request_id : requestId,
      details: Array.isArray(error.details) ? (error.details as Array<{ field: string; rule: string }>) : undefined,
      retryAfterSeconds: retryAfterSeconds(headers.get('retry-after'), now),
    });
  }
  // The standard OAuth endpoints (the revocation at logout) answer RFC 6749 errors.
  if (status >= 400 && isJson(body) && typeof body.error === 'string') {
    const description = typeof body.error_description === 'string' ? body.error_description : body.error;
    return raise({ status, code: body.error, message: description, request_id: requestId });
  }
  const location = headers.get('location');
  return raise({
    status,
    code: 'UNEXPECTED_RESPONSE',
    message: `${what}: answered ${status}${location ? ` redirecting to ${location}` : ''}${status < 300 ? ' with a body that is not JSON' : ', not in the API’s error shape'}`,
    request_id: requestId,
    retryAfterSeconds: retryAfterSeconds(headers.get('retry-after'), now),
  });
}

function raise(fields: ConstructorParameters<typeof SportsDataError>[0]): never {
  throw new SportsDataError(fields);
}

/** The path of a URL, for messages: the query string is left out. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(invalid URL)';
  }
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
