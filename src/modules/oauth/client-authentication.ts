import type { FastifyRequest } from 'fastify';
import { type Authenticator, type CredentialFailures, type CredentialHolder, requireFlowEnabled } from '../auth/index.js';
import type { TokenService } from '../tokens/index.js';
import { invalidClient, invalidRequest } from './oauth-errors.js';

/** How a client proved who it is at a standard endpoint. */
export type ClientAuthentication =
  | { method: 'client_secret_basic' | 'client_secret_post'; clientId: string; clientSecret: string }
  | { method: 'api_key'; apiKey: string };

interface ClientFields {
  client_id?: string | string[] | undefined;
  client_secret?: string | string[] | undefined;
}

/**
 * The one client authentication method a request uses (RFC 6749 §2.3: "MUST NOT use more than
 * one"): HTTP Basic (§2.3.1, id and secret form-urlencoded before base64), the id and secret in
 * the body, or — where `apiKey` allows it, for accounts without the OAuth flow — X-API-Key.
 */
export function clientAuthenticationOf(request: FastifyRequest, form: ClientFields, options: { apiKey: boolean }): ClientAuthentication {
  const authorization = request.headers.authorization;
  const apiKeyHeader = request.headers['x-api-key'];
  const apiKey = options.apiKey && typeof apiKeyHeader === 'string' ? apiKeyHeader : undefined;
  const bodyId = single(form.client_id);
  const bodySecret = single(form.client_secret);
  const used = [authorization !== undefined, bodySecret !== undefined, apiKey !== undefined].filter(Boolean).length;
  if (used > 1) throw invalidRequest('use one client authentication method per request (RFC 6749 §2.3)');

  if (authorization !== undefined) {
    const basic = basicCredentials(authorization);
    // A client_id in the body beside Basic may identify the client (§3.2.1), but must not contradict it.
    if (bodyId !== undefined && bodyId.toLowerCase() !== basic.clientId.toLowerCase()) throw invalidRequest('client_id does not match the Authorization header');
    return { method: 'client_secret_basic', ...basic };
  }
  if (bodySecret !== undefined) {
    if (bodyId === undefined) throw invalidClient('client_secret was sent without client_id');
    return { method: 'client_secret_post', clientId: bodyId, clientSecret: bodySecret };
  }
  if (apiKey !== undefined) return { method: 'api_key', apiKey };
  throw invalidClient(
    options.apiKey
      ? 'authenticate the client: HTTP Basic, client_id and client_secret in the body, or X-API-Key'
      : 'authenticate the client: HTTP Basic, or client_id and client_secret in the body',
  );
}

/** RFC 7617 Basic credentials, each part form-urlencoded as RFC 6749 §2.3.1 asks clients to. */
function basicCredentials(authorization: string): { clientId: string; clientSecret: string } {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(authorization);
  const decoded = match?.[1] === undefined ? '' : Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient('the Authorization header must be HTTP Basic with the client id and secret');
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  if (clientId === undefined || clientSecret === undefined) throw invalidClient('the Basic credentials are not validly form-urlencoded');
  return { clientId, clientSecret };
}

function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  // A repeated field is refused by the schema before any handler runs.
  return Array.isArray(value) ? undefined : value;
}

/**
 * The credential an authentication presents and its client, enabled and allowed its flow: a secret needs the OAuth flow,
 * an API key the API-key flow (an account's auth_method decides, as everywhere). A refusal is an
 * ApiError with our reason, which the error handler turns into invalid_client or unauthorized_client.
 */
export async function authenticateClient(
  request: FastifyRequest,
  auth: ClientAuthentication,
  deps: { tokens: TokenService; authenticator: Authenticator; failures: CredentialFailures },
): Promise<CredentialHolder> {
  // Under the login-failure limits like the JSON logins: a guessed secret or key costs the same here.
  const clientId = auth.method === 'api_key' ? undefined : auth.clientId;
  return deps.failures.guard(request.ip, clientId, async () => {
    if (auth.method === 'api_key') return deps.authenticator.apiKeyHolder(auth.apiKey);
    const holder = await deps.tokens.clientForSecret(auth.clientId, auth.clientSecret);
    requireFlowEnabled(holder.account, 'oauth');
    return holder;
  });
}
