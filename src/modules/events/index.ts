/** Events: the events of one day in a time zone, and those that have started. */
export { eventsRoutes } from './events.routes.js';
export { EventItem, EventOrCompetition } from './events.schemas.js';
export { createEventsService, type EventsService } from './events.service.js';
export { dayRange, todayIn } from './day-range.js';
