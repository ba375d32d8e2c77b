import swaggerUi from '@fastify/swagger-ui';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { declarePluginRoutesPolicy } from '../policy/index.js';

/**
 * Everything the page loads comes from this server (the machines have no internet): the
 * swagger-ui assets from node_modules, the document from /openapi.json. The CSP says so to
 * the browser as well, so a future asset pointing at a CDN fails loudly instead of silently.
 */
const DOCS_CSP = {
  'default-src': "'self'",
  'base-uri': "'self'",
  'connect-src': "'self'",
  'font-src': "'self' data:",
  'form-action': "'self'",
  'frame-ancestors': "'self'",
  'img-src': "'self' data:",
  'object-src': "'none'",
  'script-src': "'self'",
  'script-src-attr': "'none'",
  // swagger-ui's React components set inline style attributes.
  'style-src': "'self' 'unsafe-inline'",
};

/** GET /openapi.json (the OpenAPI 3.1 document) and GET /docs (swagger-ui rendering it). */
export const docsRoutes: ModuleRoutes = async (app) => {
  let document: string | undefined;
  app.get('/openapi.json', { config: { policy: { auth: 'none', cache: 'no-store' } }, schema: { hide: true } }, async (_request, reply) => {
    // The route table is fixed once the app is ready: render the document once.
    document ??= JSON.stringify(app.swagger());
    return reply.type('application/json; charset=utf-8').send(document);
  });

  // The page and its assets, for anyone: the assets as the plugin's static file server sends them.
  declarePluginRoutesPolicy(app, { auth: 'none', cache: 'static' });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // `urls` (rather than swagger-ui's own /docs/json) makes the page read the very
    // document clients fetch. `false` is rendered as `validatorUrl: null`: no badge that
    // would send the document to validator.swagger.io.
    uiConfig: {
      urls: [{ url: '/openapi.json', name: 'Sports Data B2B API' }],
      validatorUrl: null,
      deepLinking: true,
      displayRequestDuration: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      tryItOutEnabled: false,
    },
    validatorUrl: false,
    staticCSP: DOCS_CSP,
    theme: { title: 'Sports Data B2B API — docs' },
  });
};
