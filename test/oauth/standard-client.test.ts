import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';

/**
 * A widely used OAuth 2.0 client library that nobody here wrote (oauth4webapi), used
 * as its documentation shows, against the server listening on a port: discovery with its issuer
 * check, a client-credentials grant, a refresh grant, revocation, and the revoked token refused.
 * Plain http on loopback, which the library allows only when told to (`allowInsecureRequests`).
 */
describe.each(DIALECTS)('a standard OAuth 2.0 client library against the running server (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;
  let issuer: URL;
  const insecure = { [oauth.allowInsecureRequests]: true };

  beforeAll(async () => {
    t = await harness({ dialect });
    client = await t.client({ authMethod: 'oauth' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    issuer = new URL(`http://127.0.0.1:${port}`);
  });
  afterAll(async () => t.close());

  async function discover(identifier: URL): Promise<oauth.AuthorizationServer> {
    const response = await oauth.discoveryRequest(identifier, { algorithm: 'oauth2', ...insecure });
    return oauth.processDiscoveryResponse(identifier, response);
  }

  it('discovers, grants, refreshes and revokes; the revoked refresh token is then refused', async () => {
    const as = await discover(issuer);
    expect(as.token_endpoint).toBe(`${issuer.origin}/v1/oauth/token`);
    const oauthClient: oauth.Client = { client_id: client.clientId };

    // Client credentials grant, client_secret_basic (the library form-urlencodes id and secret).
    const granted = await oauth.processClientCredentialsResponse(
      as,
      oauthClient,
      await oauth.clientCredentialsGrantRequest(as, oauthClient, oauth.ClientSecretBasic(client.clientSecret), new URLSearchParams(), insecure),
    );
    expect(granted.token_type).toBe('bearer');
    const refreshToken = granted.refresh_token;
    if (refreshToken === undefined) throw new Error('the grant gave no refresh token');

    // The access token works on a data call.
    const account = await oauth.protectedResourceRequest(granted.access_token, 'GET', new URL('/v1/account/config', issuer), undefined, undefined, insecure);
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ client_id: client.clientId });

    // Refresh grant, client_secret_post this time.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      oauthClient,
      await oauth.refreshTokenGrantRequest(as, oauthClient, oauth.ClientSecretPost(client.clientSecret), refreshToken, insecure),
    );
    const current = refreshed.refresh_token;
    if (current === undefined) throw new Error('the refresh gave no refresh token');
    expect(current).not.toBe(refreshToken);

    // Revocation: the client logs out.
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, oauthClient, oauth.ClientSecretBasic(client.clientSecret), current, insecure));

    // The revoked refresh token is refused, as the RFC's invalid_grant.
    const refused = oauth.processRefreshTokenResponse(
      as,
      oauthClient,
      await oauth.refreshTokenGrantRequest(as, oauthClient, oauth.ClientSecretBasic(client.clientSecret), current, insecure),
    );
    await expect(refused).rejects.toBeInstanceOf(oauth.ResponseBodyError);
    await expect(refused).rejects.toMatchObject({ error: 'invalid_grant', status: 400 });
  });

  it('the library’s issuer check passes for the URL the server was reached at, and fails for another', async () => {
    await expect(discover(new URL(`http://localhost:${issuer.port}`))).resolves.toMatchObject({ issuer: `http://localhost:${issuer.port}` });
    // Metadata fetched from one origin but expected of another: the library refuses it.
    const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure });
    await expect(oauth.processDiscoveryResponse(new URL('https://api.example.com'), response)).rejects.toThrow(/issuer/);
  });

  it('a wrong secret is the RFC’s invalid_client with a Basic challenge, as the library reads it', async () => {
    const as = await discover(issuer);
    const oauthClient: oauth.Client = { client_id: client.clientId };
    const response = await oauth.clientCredentialsGrantRequest(as, oauthClient, oauth.ClientSecretBasic('sds_wrong'), new URLSearchParams(), insecure);
    const refused = oauth.processClientCredentialsResponse(as, oauthClient, response);
    await expect(refused).rejects.toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    await expect(refused).rejects.toMatchObject({ status: 401, cause: [{ scheme: 'basic', parameters: { realm: 'sports-data-api' } }] });
  });
});
