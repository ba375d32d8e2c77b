/** Prometheus metrics. */
export { metricsRoutes } from './metrics.routes.js';
