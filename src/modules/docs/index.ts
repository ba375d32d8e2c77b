/** The OpenAPI document and the docs page rendering it. */
export { docsRoutes } from './docs.routes.js';
