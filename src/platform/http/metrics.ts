import type { HttpRequestSeries } from '../metrics/http-requests.js';
import type { App } from './types.js';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Counts every response at the root of the app (so every module's routes are counted). The
 * route label is the route template (`/admin/v1/clients/:client_id`), never the raw URL: no
 * id, key, token or query string reaches a label, and the number of series stays bounded.
 */
export function registerMetrics(app: App, http: HttpRequestSeries): void {
  // Callback-style: no promise allocated per request.
  app.addHook('onResponse', (request, reply, done) => {
    http.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
