/** Liveness and readiness. */
export { healthRoutes } from './health.routes.js';
