/** Events: the events of one day in a time zone, and those that have started. */
export { dayRange } from './day-range.js';
export { eventsRoutes } from './events.routes.js';
export { EventItem } from './events.schemas.js';
export { createEventsService, type EventsService } from './events.service.js';
