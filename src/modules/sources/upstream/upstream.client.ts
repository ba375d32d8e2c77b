import { urlRedactor } from '../../../platform/logging.js';
import type { UpstreamSettings } from './upstream.settings.js';

import type { UpstreamErrorKind, UpstreamQuota } from '../../../platform/metrics/upstream.js';

export type UpstreamAnswer =
  | { ok: true; body: unknown; quota: UpstreamQuota }
  | { ok: false; kind: UpstreamErrorKind; message: string; quota: UpstreamQuota; retryAfterMs?: number };

/** One GET of the upstream: its JSON, or why not, in words that never contain the key. */
export interface UpstreamClient {
  /** `path` below the base URL (`/v4/sports/soccer_epl/odds`), with its query but without the key. */
  get(path: string, query: Record<string, string>): Promise<UpstreamAnswer>;
  /** The text with the key taken out wherever it appears, percent-encoded or not (error messages, causes). */
  redact(text: string): string;
}

export function createUpstreamClient(settings: Pick<UpstreamSettings, 'url' | 'apiKey' | 'timeoutMs'>): UpstreamClient {
  const redact = urlRedactor(settings.apiKey === undefined ? [] : [settings.apiKey]);
  const base = settings.url.replace(/\/+$/, '');
  return {
    redact,
    async get(path, query) {
      const search = new URLSearchParams(settings.apiKey === undefined ? query : { apiKey: settings.apiKey, ...query });
      // What a message may name: the path, never the query that carries the key.
      const shown = `GET ${redact(base)}${path}`;
      let response: Response;
      try {
        response = await fetch(`${base}${path}?${search}`, { signal: AbortSignal.timeout(settings.timeoutMs), headers: { accept: 'application/json' } });
      } catch (error) {
        return failed(isTimeout(error) ? 'timeout' : 'network', `${shown}: ${redact(describe(error))}`, {});
      }
      const quota = quotaOf(response.headers);
      if (!response.ok) {
        // The body of a refusal may echo the request: it is read, but not repeated.
        await response.body?.cancel().catch(() => {});
        const kind = response.status === 429 ? 'rate-limited' : response.status >= 500 ? 'server' : 'refused';
        return failed(kind, `${shown}: ${response.status}`, quota, retryAfterMs(response.headers.get('retry-after')));
      }
      try {
        return { ok: true, body: JSON.parse(await response.text()) as unknown, quota };
      } catch (error) {
        return failed(isTimeout(error) ? 'timeout' : 'malformed', `${shown}: ${isTimeout(error) ? 'the answer took too long' : 'the answer is not JSON'}`, quota);
      }
    },
  };
}

function failed(kind: UpstreamErrorKind, message: string, quota: UpstreamQuota, retryAfter?: number): UpstreamAnswer {
  return { ok: false, kind, message, quota, ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }) };
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** fetch's "fetch failed" says nothing: its cause (ECONNREFUSED…) does. Both go through `redact` before anyone sees them. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function quotaOf(headers: Headers): UpstreamQuota {
  // Whole numbers only: anything else is not what The Odds API sends, and is not shown.
  const number = (name: string) => {
    const value = headers.get(name)?.trim();
    return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
  };
  const remaining = number('x-requests-remaining');
  const used = number('x-requests-used');
  return { ...(remaining === undefined ? {} : { remaining }), ...(used === undefined ? {} : { used }) };
}

/** Retry-After in seconds (an HTTP date is not worth the parse: the backoff covers it). */
function retryAfterMs(value: string | null): number | undefined {
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value.trim()) * 1000 : undefined;
}
