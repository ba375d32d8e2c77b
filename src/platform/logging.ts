import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { type Bindings, type ChildLoggerOptions, type DestinationStream, type Level, type LogFn, type Logger, pino } from 'pino';

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
 * `?search=sdk_…` would otherwise be logged verbatim): an API key, client secret or refresh token
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

/**
 * Fastify's `childLoggerFactory`: each request's logger, which makes its pino child only when the
 * request logs something at an enabled level. Fastify asks for one per request; making a pino child
 * is work on every request (more with the redaction paths), and at `LOG_LEVEL=warn` most requests
 * log nothing (decision 0140). A child with options of its own (a route's log level) is made at once.
 */
export function requestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  // The app's logger is the pino logger createLogger made (app.ts), so it can say which levels log.
  return new LazyChild(logger as Logger, bindings);
}

class LazyChild implements FastifyBaseLogger {
  #child: Logger | undefined;
  readonly fatal = this.#at('fatal');
  readonly error = this.#at('error');
  readonly warn = this.#at('warn');
  readonly info = this.#at('info');
  readonly debug = this.#at('debug');
  readonly trace = this.#at('trace');

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
  ) {}

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  bindings(): Bindings {
    return this.#real().bindings();
  }

  silent(): void {}

  #real(): Logger {
    this.#child ??= this.parent.child(this.childBindings);
    return this.#child;
  }

  #at(level: Level): LogFn {
    return ((...args: Parameters<LogFn>) => {
      if (this.isLevelEnabled(level)) this.#real()[level](...args);
    }) as LogFn;
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keeps a caller's X-Request-Id when it is short and plain, so both sides can quote it. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
