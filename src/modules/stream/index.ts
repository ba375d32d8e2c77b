/** Live odds changes as Server-Sent Events, fanned out on every node; and the same changes read after an id, a page at a time. */
export { changesRoutes } from './changes.routes.js';
export { streamRoutes } from './stream.routes.js';
export { createStreamSlots, type StreamSlots } from './stream.slots.js';
