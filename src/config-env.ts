import { type Static, Type } from 'typebox';

/**
 * Every environment variable the service reads, once: its type, default, bounds and meaning. The
 * reader (config.ts) parses and checks each value by its schema and names the variable in every
 * error; the configuration table of docs/operations.md is generated from the same schema, so the
 * two cannot drift. `x-default` says in words what an unset variable means where no single value does.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const MAX_WORKERS = 256;

const Integer = (fallback: number, minimum: number, maximum: number, description: string) => Type.Integer({ default: fallback, minimum, maximum, description });
const Decimal = (fallback: number, minimum: number, maximum: number, description: string) => Type.Number({ default: fallback, minimum, maximum, description });
const Unset = (description: string, unset = 'unset') => Type.Optional(Type.String({ description, 'x-default': unset }));

export const ENV = Type.Object({
  PORT: Integer(8080, 0, 65535, 'the port to listen on'),
  HOST: Type.String({ default: '127.0.0.1', description: 'the address to listen on; `HOST=0.0.0.0` to listen on every interface' }),
  DATABASE_URL: Type.String({
    default: 'sqlite:./data/sportsdata.db',
    pattern: '^(sqlite:|postgres://|postgresql://)',
    'x-error': 'start with "sqlite:" or "postgres://" (got an unknown scheme)',
    description: '`sqlite:PATH` (relative to the working directory) or `postgres://user:password@host:5432/database`',
  }),
  DATA_DIR: Unset('where a serving process keeps a generated JWT secret (`jwt-secret`) and the demo credentials', "the SQLite file's directory, else `./data`"),
  NODE_ENV: Unset('`production` requires `JWT_SECRET`; a node on PostgreSQL requires it unless this is `development` or `test`'),
  JWT_SECRET: Unset('the key that signs access tokens (HS256): the UTF-8 bytes of the value, at least 32 bytes', 'generated (see [Keys and secrets](#keys-and-secrets))'),
  JWT_PREVIOUS_SECRETS: Unset('older keys, separated by spaces, that still verify tokens: for rotating `JWT_SECRET`'),
  JWT_ISSUER: Type.String({ default: 'sports-data-api', description: 'the `iss` claim of access tokens' }),
  JWT_AUDIENCE: Type.String({ default: 'sports-data-api', description: 'the `aud` claim of access tokens' }),
  ACCESS_TOKEN_TTL: Integer(900, 1, 86_400, 'access-token lifetime, seconds'),
  REFRESH_TOKEN_TTL: Integer(2_592_000, 60, 31_536_000, 'refresh-token lifetime, seconds (30 days; renewed by each refresh)'),
  ADMIN_TOKEN: Unset('enables the admin API (at least 32 bytes); unset, every `/admin` path answers 404'),
  DEMO_DATA: Type.Boolean({ default: true, description: 'on an empty database, create the demo client and the demo dataset (`true`, `1`, `yes` or `false`, `0`, `no`)' }),
  DEMO_TICKER_PER_SECOND: Integer(
    5,
    0,
    1_000,
    "on the demo's data (with `DEMO_DATA` on), about this many of the demo books' prices move each second, on events starting within a day of now, through the import as a feed's would: the price history, the odds stream, board events and webhooks show them, an event that has started goes live, scores and ends final, and is graded. One node moves them at a time (a database lease). `0`: the demo's prices stay as they were made. Only the demo's own events and books move: data a source brought in never does. See [The demo ticker](#the-demo-ticker)",
  ),
  LOG_LEVEL: Type.Union(LOG_LEVELS.map((level) => Type.Literal(level)), { default: 'info', description: 'how much the log says' }),
  PUBLIC_URL: Unset("the service's public origin, e.g. `https://api.example.com` (no path): the issuer of the OAuth metadata at `/.well-known/oauth-authorization-server`. Unset, each request's own origin is used; behind a proxy or load balancer set it, so that OAuth client libraries see the issuer they were configured with. It is also the origin of the portal's and the console's pages: a browser's sign-in must come from it, and their cookies are `Secure` unless it is plain HTTP on `localhost`. See [Behind a load balancer](#behind-a-load-balancer)"),
  REDIS_URL: Unset('`redis://…`: changes (client accounts, imports) reach every node through Redis pub/sub within milliseconds, the rate-limit, quota and login-failure counters live there, and the open odds streams of a client are counted there across the nodes, shared by every node and worker (one atomic round trip per request). Unset, one node counts in its own memory. While Redis is away nodes keep serving, count locally (one warning per outage) and changes arrive by the poll'),
  TIER_LIMITS: Unset('JSON merged over the defaults, field by field, e.g. `{"pro":{"per_minute":1200,"per_day":null}}`; `null` is no cap; a tier with both rates `null` has no limits and is not counted. `webhook_endpoints` caps the webhook endpoints one client of the tier may keep (`0` none; one more is 409)', 'free 60/minute and 5,000/day; pro 600/minute, 200,000/day and 5 webhook endpoints; enterprise 6,000/minute, no daily cap and 50 webhook endpoints'),
  USAGE_FLUSH_MS: Integer(1000, 10, 600_000, 'how often each node writes its usage counts, in one batch. A node killed outright (kill -9, a crash, the out-of-memory killer) loses at most this much of them: those requests are never billed, and since each client\'s day restarts from the written counts, they are given back to the daily quotas too. A larger value writes less often and risks that much more; a graceful stop writes everything'),
  USAGE_RETENTION_DAYS: Integer(400, 1, 36_500, 'usage of older days is deleted (hourly, by every node)'),
  USAGE_HOURLY_RETENTION_DAYS: Integer(35, 1, 36_500, 'hourly usage counts and the record of 429 answers (what the portal\'s hourly charts and its list of refusals show) older than this many days are deleted (hourly, by every node): finer than the daily usage, so kept shorter'),
  AUDIT_RETENTION_DAYS: Integer(730, 1, 36_500, 'audit-log entries (every change to a client account, by an operator or the client) older than this many days are deleted (hourly, by every node)'),
  LOGIN_FAILURES_PER_MINUTE: Integer(100, 1, 1_000_000, 'failed logins, refreshes, refused `X-API-Key`s and wrong admin tokens per UTC minute from one source address; past it every further failure from that address is 429 until the minute ends. A credential that verifies is always served'),
  LOGIN_FAILURES_PER_CLIENT_PER_MINUTE: Integer(10, 1, 1_000_000, 'the same for one client_id from one source address. Never per client_id alone, so nobody can lock a client out from elsewhere'),
  TRUST_PROXY: Unset('which `X-Forwarded-For` to believe for the source address that the login-failure limits count: a hop count (`1` behind one load balancer) or a comma-separated list of the load balancers\' addresses and CIDRs (`10.0.0.0/8`); off, the TCP peer. The `X-Forwarded-Proto` and `X-Forwarded-Host` of the same hops say where the portal and the console are served from when `PUBLIC_URL` is unset. `true` is refused: any client could then choose its address. See [Behind a load balancer](#behind-a-load-balancer)', 'off'),
  WEB_SESSIONS_PER_NODE: Integer(10_000, 1, 1_000_000, "signed-in sessions of the client portal that one node keeps in its memory, and as many of the operator console. One client (or the operator) has at most 20 on a node: its next sign-in ends its own oldest. A full node refuses a new sign-in with 429 and never ends another client's session to make room; sessions end after 30 idle minutes (12 hours at most). See [Client accounts](#client-accounts)"),
  IMPORT_THREAD: Type.Boolean({ default: true, description: 'make the imports of `POST /admin/v1/import` and of the demo ticker, and the work after them (grading, board events, moves, signals, webhook deliveries), on a thread of their own with its own database connection, so that a feed does not hold up the reads (docs/operations.md#the-import-thread); `false`: in the thread that serves. An in-memory SQLite database is never shared with a thread' }),
  IMPORT_THREAD_NICE: Integer(0, 0, 19, 'the import thread\'s nice value on Linux (0 to 19): the higher, the more it leaves the CPU to the serving thread\'s reads when the cores are busy, and the later a busy feed\'s imports are answered and streamed (docs/operations.md#the-import-thread)'),
  CHANGE_POLL_MS: Integer(1000, 10, 3_600_000, 'how often each node reads the change counters from the database: the way changes arrive without Redis, and the fallback with it'),
  WORKERS: Type.String({ default: '1', description: `processes serving the port (node:cluster), 1 to ${MAX_WORKERS}; \`auto\` = one per core. \`sportsdata serve --workers N\` overrides it` }),
  SHUTDOWN_DRAIN_MS: Integer(0, 0, 600_000, 'after SIGTERM, `/readyz` answers 503 this long while requests are still served, so a load balancer takes the node out first; behind one, set a few seconds (more than its health-check interval)'),
  SHUTDOWN_TIMEOUT: Integer(10, 0, 3600, 'seconds, from the end of the drain, within which the process has exited: requests in flight get until then to finish (one whose body is still arriving included), then it exits with code 1 regardless'),
  HEADERS_TIMEOUT: Integer(10, 1, 600, 'seconds a client has, from the first byte of a request, to send its request line and headers; then 408 `REQUEST_TIMEOUT` and the connection is closed (checked every second). An idle keep-alive connection is not a request; a new connection counts from its opening, so one that never sends is closed too'),
  REQUEST_TIMEOUT: Integer(60, 1, 3600, 'seconds a client has, from the first byte of a request, to send all of it, body included; then 408 and the connection is closed. At least `HEADERS_TIMEOUT`. A 64 MiB import must arrive at about 1.1 MB/s to make it: raise it for large imports over slow links'),
  HISTORY_RETENTION_DAYS: Integer(730, 1, 36_500, 'price changes recorded more than this many days ago are deleted, hourly, by every node; a past season loaded today counts from today (docs/decisions/0129, 0299)'),
  STREAM_HEARTBEAT_MS: Integer(15_000, 100, 300_000, 'how often an open odds stream gets a heartbeat comment, so that proxies and load balancers keep it open'),
  ENCRYPTION_KEY: Unset(
    'the AES-256-GCM key that encrypts what the service must read back but never show: the clients\' check-endpoint tokens and webhook signing secrets. 32 bytes as 64 hex digits or in base64 (`openssl rand -base64 32`). Required with `NODE_ENV=production`, and on PostgreSQL unless `NODE_ENV` is `development` or `test`',
    'generated (see [Keys and secrets](#keys-and-secrets))',
  ),
  CHECK_ENDPOINT_KEY: Unset('the older name of `ENCRYPTION_KEY`, still read: set one of them, or both to the same key'),
  OUTBOUND_ALLOW_CIDRS: Unset(
    'addresses and CIDRs, comma-separated, that calls to clients\' check endpoints may reach although they are loopback, private, link-local or otherwise internal (`10.20.0.0/16,::1/128`); unset, only public addresses are called. See [Calls to clients\' endpoints](#calls-to-clients-endpoints)',
  ),
  OUTBOUND_CALLS_PER_MINUTE: Integer(600, 1, 1_000_000, 'calls to its check endpoint one client\'s quotes may make per UTC minute; past it an item answers 429 without a call'),
  OUTBOUND_TIMEOUT_MS: Integer(5000, 10, 60_000, 'how long a check endpoint has to answer one call before its items answer 504'),
  WEBHOOK_TIMEOUT_MS: Integer(10_000, 100, 60_000, 'how long a webhook endpoint has to answer one delivery: a 2xx within it is success, anything else a failure retried on the schedule in [Webhooks](api.md#webhooks)'),
  WEBHOOK_BATCH_WINDOW_MS: Integer(500, 0, 1_000, 'changes recorded within this window go to an endpoint as one delivery (up to `WEBHOOK_BATCH_MAX` changes), so a busy feed is a few requests a second per endpoint'),
  WEBHOOK_BATCH_MAX: Integer(500, 1, 1_000, 'the most changes one `odds.changed` or `board.changed` delivery carries, and the most edges one `edge.found` delivery carries'),
  WEBHOOK_RETENTION_DAYS: Integer(7, 1, 90, 'days deliveries and their attempts are kept: how far back a replay reaches and the deliveries page shows'),
  SIGNALS_MIN_EV_PCT: Integer(2, 0, 100, 'the EV%, a whole percent, from which a book\'s price is a value-bet signal of the detector\'s record (`POST /v1/signals`, decision 0321)'),
  MOVES_DETECT: Type.Boolean({ default: true, description: 'find steam moves and drops as the imports land (docs/data.md#steam-moves-and-drops); `false`: none is found, stored, streamed or sent' }),
  MOVES_MIN_BOOKS: Integer(3, 2, 1_000, 'a steam move: at least this many books shortening one selection…'),
  MOVES_MIN_MOVE: Decimal(2, 0.000001, 100, '…each by at least this many percentage points of implied probability…'),
  MOVES_WINDOW_S: Integer(120, 1, 86_400, '…within this many seconds; a drop: one book\'s price against its price this many seconds before'),
  MOVES_MIN_DROP: Decimal(10, 0.000001, 100, 'a drop: one book shortening by at least this percent of its decimal price'),
  UPSTREAM_URL: Unset(
    "the base URL of an upstream answering in The Odds API v4's shape (`https://api.the-odds-api.com`), without a query: with `UPSTREAM_SPORTS`, every node follows it in the background, one at a time, importing the odds and scores that changed (`sportsdata feed the-odds-api` does the same in the foreground). Operator configuration: it is not checked against the rules of calls to clients' URLs. See [Following an upstream feed](#following-an-upstream-feed)",
    'no feed',
  ),
  UPSTREAM_API_KEY: Unset("the upstream's API key, sent as its `apiKey` query parameter; it appears in no log line, error message or metric label"),
  UPSTREAM_SPORTS: Unset('the sport keys to follow, comma-separated, as the upstream names them (`soccer_epl,basketball_nba`); required with `UPSTREAM_URL`'),
  UPSTREAM_REGIONS: Type.String({ default: 'uk,eu', pattern: '^[a-z0-9_]+(,[a-z0-9_]+)*$', 'x-error': 'be a comma-separated list of region keys such as uk,eu,us', description: "the upstream's `regions`: whose bookmakers are asked for; each region costs the upstream's quota" }),
  UPSTREAM_MARKETS: Type.String({ default: 'h2h,spreads,totals', pattern: '^[a-z0-9_]+(,[a-z0-9_]+)*$', 'x-error': 'be a comma-separated list of market keys such as h2h,spreads,totals', description: "the upstream's `markets`; those read are `h2h`, `spreads` and `totals`, each costing the upstream's quota" }),
  UPSTREAM_INTERVAL_S: Integer(300, 5, 86_400, 'seconds between two rounds of polls of the upstream (each sport\'s odds and scores) when the last went well; after a 429, a 5xx, a timeout or an unreachable upstream the wait doubles, with jitter, up to 15 minutes'),
  UPSTREAM_TIMEOUT_MS: Integer(10_000, 100, 120_000, 'how long one upstream request has to answer, body included'),
});

/** The variables as read: each one parsed by its schema, a default in place of an unset one. */
export type EnvVariables = Static<typeof ENV>;
