/** The upstream feed's configuration (UPSTREAM_* in config-env.ts): operator configuration, never a client's input. */
export interface UpstreamSettings {
  /** The upstream's base URL (`https://api.the-odds-api.com`), without a query: paths are appended to it. */
  readonly url: string;
  /** Sent as the `apiKey` query parameter, as The Odds API takes it; never logged, shown or labelled. */
  readonly apiKey: string | undefined;
  /** The Odds API's sport keys to follow, e.g. `soccer_epl`. */
  readonly sports: readonly string[];
  readonly regions: string;
  readonly markets: string;
  /** Between two rounds of polls, when the last one went well. */
  readonly intervalMs: number;
  /** How long one request may take, answer included. */
  readonly timeoutMs: number;
}
