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
  // A client's check-endpoint credential, sent to us to be stored encrypted.
  'body.auth_token',
  '*.auth_token',
  '*.api_key',
  '*.client_secret',
  '*.refresh_token',
  '*.access_token',
];

/**
 * Query parameters whose values never reach a log, should a client put a credential in a URL: a
 * name that says token, secret, password, auth, credential, session or signature, an API key
 * (`api_key`, `x-api-key`, `apikey`) or a bare `key`. Not the data keys (`sport_key`,
 * `league_key`, `operator_keys`…): they name sports and teams, and a log without them cannot
 * tell one request from another.
 */
const SENSITIVE_QUERY = /([?&](?:[^=&]*(?:token|secret|passw|auth|credential|session|signature|api[-_.]?key)[^=&]*|keys?)=)[^&]*/gi;

/**
 * Anything shaped like one of our credentials, wherever it is in a URL (`GET /sdk_…`,
 * `?search=sdk_…` were logged verbatim): an API key, client secret or refresh token
 * (`sdk_`/`sds_`/`sdr_` and base62, see credentials.ts), also with the underscore
 * percent-encoded, and a JWT (a base64url JSON header, `eyJ…`, and its other segments).
 * Eight characters of the random part are enough to redact: a pasted fragment counts too.
 */
const CREDENTIAL_SHAPED = /(sd[ksr])(?:_|%5f)[0-9A-Za-z]{8,}|eyJ[\w-]{8,}(?:(?:\.|%2e)[\w-]*){0,2}/gi;

const REDACTED = '[redacted]';

/**
 * A configured secret shorter than this is redacted only where it is a whole path segment, query
 * name or value: as a part of any text, a short database password would blank out ordinary words.
 */
const MIN_SECRET_ANYWHERE = 8;

/** Turns a request's URL into what may be logged or echoed in an answer. */
export type UrlRedactor = (url: string) => string;

/**
 * The redactor of a process whose configuration holds `secrets` (ADMIN_TOKEN, the JWT keys, the
 * passwords of its database and Redis URLs): each is redacted wherever a client put it, in a
 * path segment or in any query parameter, literally or with any of its characters
 * percent-encoded, since whoever reads the log can decode it. Credential-shaped text and the
 * values of parameters named like credentials are redacted as well.
 */
export function urlRedactor(secrets: readonly string[] = []): UrlRedactor {
  const configured = configuredSecretsPattern(secrets);
  return (url) => {
    const shown = configured === undefined ? url : url.replace(configured, REDACTED);
    return shown
      .replace(CREDENTIAL_SHAPED, (_match, prefix: string | undefined) => (prefix === undefined ? REDACTED : `${prefix}_${REDACTED}`))
      .replace(SENSITIVE_QUERY, `$1${REDACTED}`);
  };
}

function configuredSecretsPattern(secrets: readonly string[]): RegExp | undefined {
  // Longest first: a secret that contains another is redacted whole.
  const distinct = [...new Set(secrets.filter((secret) => secret.length > 0))].sort((a, b) => b.length - a.length);
  if (distinct.length === 0) return undefined;
  const alternatives = distinct.map((secret) =>
    secret.length >= MIN_SECRET_ANYWHERE ? anyEncoding(secret) : `(?<=^|[/?&=;])${anyEncoding(secret)}(?=$|[/?&=;#])`,
  );
  return new RegExp(alternatives.join('|'), 'g');
}

/** A pattern that matches `text` with any of its characters percent-encoded (hex in either case), and a space as `+` too. */
function anyEncoding(text: string): string {
  return [...text]
    .map((char) => {
      const encoded = [...Buffer.from(char, 'utf8')].map((byte) => `%${hexEitherCase(byte)}`).join('');
      const literal = char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
      return char === ' ' ? `(?:${literal}|\\+|${encoded})` : `(?:${literal}|${encoded})`;
    })
    .join('');
}

function hexEitherCase(byte: number): string {
  return [...byte.toString(16).padStart(2, '0')].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
}

/** `redactUrl`: what the request serializer shows of a URL (the process's configured secrets among what it hides). */
export function createLogger(level: string, destination?: DestinationStream, redactUrl: UrlRedactor = urlRedactor()): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: REDACTED },
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

/**
 * Fastify's `genReqId`: keeps a caller's X-Request-Id when it is short and plain, so both sides
 * can quote it, unless it is a secret (`isSecret`: a credential fits the plain shape, and the id
 * is logged with every line and echoed in every answer): then, as for any other, a fresh one.
 */
export function requestIds(isSecret: (value: string) => boolean): (req: IncomingMessage) => string {
  return (req) => {
    const incoming = req.headers['x-request-id'];
    return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) && !isSecret(incoming) ? incoming : randomUUID();
  };
}
