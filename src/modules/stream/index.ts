/** Live odds changes as Server-Sent Events, fanned out on every node. */
export { streamRoutes } from './stream.routes.js';
export { createStreamSlots, type StreamSlots } from './stream.slots.js';
