import type { Scenario } from '../load.js';
import type { DemoCredentials } from '../run.js';
import { call, type TokenPair } from './http.js';

/** The authentication scenarios: both logins, rotating refresh, and an authenticated call both ways. */
export async function authScenarios(baseUrl: string, demo: DemoCredentials, connections: number): Promise<Scenario[]> {
  const apiKeyHeaders = { 'x-api-key': demo.api_key };
  const login = () => call<TokenPair>(baseUrl, 'POST', '/v1/auth/login', { headers: apiKeyHeaders });
  const { access_token } = await login();

  // A refresh token is good for exactly one refresh. autocannon resets a connection's context
  // after every request of a one-request list, so the chain lives in a shared queue instead:
  // each request takes a token, each success puts its successor back.
  const queue: string[] = [];
  for (let i = 0; i < connections * 3; i += 1) queue.push((await login()).refresh_token);

  return [
    {
      name: 'GET /v1/account/config, Bearer',
      requests: [{ method: 'GET', path: '/v1/account/config', headers: { authorization: `Bearer ${access_token}` } }],
    },
    {
      name: 'GET /v1/account/config, X-API-Key',
      requests: [{ method: 'GET', path: '/v1/account/config', headers: apiKeyHeaders }],
    },
    { name: 'POST /v1/auth/login (API key)', requests: [{ method: 'POST', path: '/v1/auth/login', headers: apiKeyHeaders }] },
    {
      name: 'POST /v1/oauth/login',
      requests: [
        {
          method: 'POST',
          path: '/v1/oauth/login',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: demo.client_id, client_secret: demo.client_secret }),
        },
      ],
    },
    {
      name: 'POST /v1/auth/refresh (rotating)',
      requests: [
        {
          method: 'POST',
          path: '/v1/auth/refresh',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ refresh_token: queue.shift() }) }),
          onResponse: (status, body) => {
            if (status === 200) queue.push((JSON.parse(body) as TokenPair).refresh_token);
          },
        },
      ],
    },
  ];
}
