/** The client portal at /portal: its sessions (a policy step of session routes) and its routes. */
export { createPortalSessions, type PortalSessions } from './portal.sessions.js';
export { portalRoutes } from './portal.routes.js';
