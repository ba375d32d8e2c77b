import { SportsDataClient, SportsDataError } from '@sports-data/client';

/**
 * A client from the environment: SPORTS_DATA_URL (default http://127.0.0.1:8080, the quick
 * start's server), and SPORTS_DATA_API_KEY or SPORTS_DATA_CLIENT_ID with SPORTS_DATA_CLIENT_SECRET.
 * Credentials come from the environment, never from the command line, where `ps` shows them.
 */
export function clientFromEnvironment(): SportsDataClient {
  const baseUrl = process.env.SPORTS_DATA_URL ?? 'http://127.0.0.1:8080';
  const { SPORTS_DATA_API_KEY: apiKey, SPORTS_DATA_CLIENT_ID: clientId, SPORTS_DATA_CLIENT_SECRET: clientSecret } = process.env;
  if (apiKey) return new SportsDataClient({ baseUrl, apiKey });
  if (clientId && clientSecret) return new SportsDataClient({ baseUrl, clientId, clientSecret });
  console.error('Set SPORTS_DATA_API_KEY, or SPORTS_DATA_CLIENT_ID and SPORTS_DATA_CLIENT_SECRET.');
  process.exit(2);
}

/** Ends the script on an error, saying what a person needs: the code, the reason, the request id. */
export function fail(error: unknown): never {
  if (error instanceof SportsDataError) {
    console.error(`${error.code}${error.reason ? ` (${error.reason})` : ''}: ${error.message}${error.request_id ? ` [request ${error.request_id}]` : ''}`);
  } else {
    console.error(error);
  }
  process.exit(1);
}
