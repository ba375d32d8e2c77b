import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { DestinationStream } from 'pino';
import type { AppContext } from './context.js';
import { registerErrorHandling } from './platform/http/errors.plugin.js';
import { registerJsonBodies } from './platform/http/json-bodies.js';
import { registerMetrics } from './platform/http/metrics.js';
import { registerOpenApi } from './platform/http/openapi.js';
import type { App, ModuleRoutes } from './platform/http/types.js';
import { validatorCompiler } from './platform/http/validation.js';
import { createLogger, requestId } from './platform/logging.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { eventsRoutes } from './modules/events/events.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { oddsRoutes } from './modules/odds/odds.routes.js';
import { referencesRoutes } from './modules/references/references.routes.js';
import { tokensRoutes } from './modules/tokens/tokens.routes.js';
import { trendsRoutes } from './modules/trends/trends.routes.js';
import { docsRoutes } from './modules/docs/docs.routes.js';
import { importRoutes } from './modules/import/import.routes.js';
import { metricsRoutes } from './modules/metrics/metrics.routes.js';

export interface BuildAppOptions {
  /** Where the JSON log lines go (default stdout). Tests pass a buffer. */
  logStream?: DestinationStream;
}

const MODULES: ModuleRoutes[] = [
  healthRoutes,
  tokensRoutes,
  accountRoutes,
  referencesRoutes,
  eventsRoutes,
  oddsRoutes,
  trendsRoutes,
  adminRoutes,
  importRoutes,
  docsRoutes,
  metricsRoutes,
];

/** Builds the HTTP app over a context. No I/O happens at import time; the caller listens. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<App> {
  const logger: FastifyBaseLogger = createLogger(ctx.config.logLevel, options.logStream);
  const app: App = Fastify({
    loggerInstance: logger,
    genReqId: requestId,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  registerJsonBodies(app);
  registerErrorHandling(app);
  registerMetrics(app);

  app.decorateRequest('principal', null as never);
  app.decorate('authenticate', async (request) => {
    request.principal = await ctx.authenticator.authenticate(request.headers);
  });
  // Callback-style hooks on every request: no promise allocated per hook on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  await ctx.changes.start(app.log);
  app.addHook('onClose', async () => ctx.changes.stop());

  await registerOpenApi(app);
  for (const routes of MODULES) {
    await app.register(async (scope) => routes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx));
  }
  return app;
}
