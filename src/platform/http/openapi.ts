import swagger from '@fastify/swagger';
import type { App } from './types.js';

/** Security requirement for client routes: either credential the flow matrix allows. */
export const CLIENT_SECURITY = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
export const ADMIN_SECURITY = [{ AdminToken: [] }];

/**
 * The OpenAPI 3.1 document, built from the same TypeBox schemas that validate requests and
 * serialize responses. Registered before any route so that every route is in it.
 */
export async function registerOpenApi(app: App): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sports Data B2B API',
        version: '1.0.0',
        description:
          'Sports reference data, events, odds and betting trends ("flows") for business clients. ' +
          'Authenticate with an API key (X-API-Key) or OAuth 2.0 client credentials, optionally exchanged for a JWT token pair.',
      },
      components: {
        securitySchemes: {
          ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          AdminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the deployment.' },
        },
      },
    },
  });
}
