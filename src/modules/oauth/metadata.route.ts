import { STANDARD_ENDPOINT } from '../../platform/http/strict-input.js';
import type { App } from '../../platform/http/types.js';
import { issuerOf } from './issuer.js';
import type { OAuthDeps } from './oauth.routes.js';
import { AuthorizationServerMetadata, oauthErrorResponses } from './oauth.schemas.js';
import { REVOKE_PATH } from './revoke.route.js';
import { TOKEN_PATH } from './token.route.js';

/** RFC 8414 §3: the metadata of an issuer without a path lives here. */
export const METADATA_PATH = '/.well-known/oauth-authorization-server';
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];

/** GET /.well-known/oauth-authorization-server (RFC 8414): where the standard endpoints are, and what they take. */
export function metadataRoute(app: App, deps: Pick<OAuthDeps, 'publicUrl' | 'listenOrigin'>): void {
  app.get(
    METADATA_PATH,
    {
      config: { policy: { auth: 'none', cache: 'token', security: [] } },
      schema: {
        tags: ['authentication'],
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        description:
          'Lets a standard client find the token and revocation endpoints. The issuer is PUBLIC_URL, or when that is unset the origin ' +
          'the request came to (`http://127.0.0.1:8080` for the quick start), so a client configured with that URL passes its issuer ' +
          'check. Scopes are not supported (`scopes_supported` is empty), and there is no authorization endpoint ' +
          '(`response_types_supported` is empty).',
        response: {
          200: AuthorizationServerMetadata,
          ...oauthErrorResponses({ 500: 'server_error.', 503: 'temporarily_unavailable: this node is shutting down; retry (Retry-After).' }),
        },
        [STANDARD_ENDPOINT]: 'RFC 8414',
      },
    },
    async (request): Promise<AuthorizationServerMetadata> => {
      const issuer = issuerOf(request, deps.publicUrl, deps.listenOrigin);
      return {
        issuer,
        token_endpoint: `${issuer}${TOKEN_PATH}`,
        token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
        grant_types_supported: ['client_credentials', 'refresh_token'],
        response_types_supported: [],
        scopes_supported: [],
        revocation_endpoint: `${issuer}${REVOKE_PATH}`,
        revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
        service_documentation: `${issuer}/docs`,
      };
    },
  );
}
