import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Paths pino censors wherever they appear. Fastify's own request serializer logs neither
 * headers nor bodies; these guard anything that logs a request or reply object by hand.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.body',
  'headers.authorization',
  'headers["x-api-key"]',
  'body.client_secret',
  'body.refresh_token',
  // The revocation endpoint's form (RFC 7009): `token` is a refresh or access token.
  'body.token',
  '*.api_key',
  '*.client_secret',
  '*.refresh_token',
  '*.access_token',
];

/** Query parameters whose values never reach a log, should a client put a credential in a URL. */
const SENSITIVE_QUERY = /([?&](?:[^=&]*(?:token|key|secret|password|auth)[^=&]*)=)[^&]*/gi;

/**
 * Anything shaped like one of our credentials, wherever it is in a URL (`GET /sdk_…`,
 * `?search=sdk_…` were logged verbatim, issue 8): an API key, client secret or refresh token
 * (`sdk_`/`sds_`/`sdr_` and base62, see credentials.ts), also with the underscore
 * percent-encoded, and a JWT (a base64url JSON header, `eyJ…`, and its other segments).
 * Eight characters of the random part are enough to redact: a pasted fragment counts too.
 */
const CREDENTIAL_SHAPED = /(sd[ksr])(?:_|%5f)[0-9A-Za-z]{8,}|eyJ[\w-]{8,}(?:(?:\.|%2e)[\w-]*){0,2}/gi;

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: IncomingMessage & { id?: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url ?? ''),
          remoteAddress: req.socket?.remoteAddress,
        }),
      },
    },
    destination,
  );
}

export function redactUrl(url: string): string {
  return url
    .replace(CREDENTIAL_SHAPED, (_match, prefix: string | undefined) => (prefix === undefined ? '[redacted]' : `${prefix}_[redacted]`))
    .replace(SENSITIVE_QUERY, '$1[redacted]');
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keeps a caller's X-Request-Id when it is short and plain, so both sides can quote it. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
