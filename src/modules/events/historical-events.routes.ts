import type { App } from '../../platform/http/types.js';
import { listRoute } from '../../platform/lists/list-route.js';
import type { PagedLists } from '../../platform/lists/paged-lists.js';
import { HistoricalEventsPage, HistoricalEventsQuery } from './events.schemas.js';
import type { EventsService } from './events.service.js';

/** GET /v1/historical/events: the events that have started, for every tier (their price history is not). */
export function historicalEventsRoutes(app: App, { lists, events }: { lists: PagedLists; events: EventsService }): void {
  app.get(
    '/v1/historical/events',
    listRoute({
      config: { policy: { auth: 'client', tier: 'historical-events', limit: 'data', usage: 'events', cache: 'data', errors: ['NOT_FOUND'] } },
      tag: 'historical',
      summary: 'Events that have started',
      description:
        'The events that have started, from start_date to end_date (whole UTC days; default the last 30 days up to now), ' +
        'ordered by start time then id, with their status and, when the feed has one, their score. Filter by sport, league ' +
        'and team (home or away); an unknown id is 404. Every tier may list them; their price history is for pro and enterprise: ' +
        'each item names its files (`json_url`, `csv_url`), which keep their own tier rule.',
      querystring: HistoricalEventsQuery,
      page: HistoricalEventsPage,
    }),
    lists.byQuery(lists.source(events.historical), events.historical.filters),
  );
}
