/** Events: the events of one day in a time zone. */
export { eventsRoutes } from './events.routes.js';
export { createEventsService, type EventsService } from './events.service.js';
