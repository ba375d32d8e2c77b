/** The client portal at /portal and the operator console at /console: their sessions (a policy step of session routes), their routes and their pages' headers. */
export { createWebSessions, type WebSessions } from './portal.sessions.js';
export { consoleRoutes } from './console.routes.js';
export { portalRoutes } from './portal.routes.js';
export { registerPageHeaders } from './web.js';
