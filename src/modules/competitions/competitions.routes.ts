import { listRoute } from '../../platform/lists/list-route.js';
import type { PagedLists } from '../../platform/lists/paged-lists.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { CompetitionsPage, CompetitionsQuery, ParticipantsPage, ParticipantsParams, ParticipantsQuery } from './competitions.schemas.js';
import type { CompetitionsService } from './competitions.service.js';

/** GET /v1/competitions and GET /v1/competitions/:event_id/participants: lists of their own, with the events lists' policy. */
export const competitionsRoutes: ModuleRoutes<{ lists: PagedLists; competitions: CompetitionsService }> = async (app, { lists, competitions }) => {
  const policy = { auth: 'client', tier: 'basics', limit: 'data', usage: 'events', cache: 'data' } as const;
  app.get(
    '/v1/competitions',
    listRoute({
      config: { policy: { ...policy, errors: ['NOT_FOUND', 'AMBIGUOUS_LOOKUP'] } },
      tag: 'events',
      summary: 'Competitions: tournaments, races and futures',
      description:
        'Events of N participants (docs/data.md#competitions), ordered by start time then id. Filter by sport and league (an id wins over a key), ' +
        'by type, and by time: `from` keeps those that end at or after it, `to` those that start before it.',
      querystring: CompetitionsQuery,
      page: CompetitionsPage,
    }),
    lists.byQuery(lists.source(competitions.list), competitions.list.filters),
  );
  const participants = listRoute({
    config: { policy: { ...policy, errors: ['NOT_FOUND'] } },
    tag: 'events',
    summary: "A competition's participants, with their results",
    description: 'The teams or players of a competition, by id, each with its finishing result once the feed sends one (ties share a position). 404 when the competition is unknown.',
    querystring: ParticipantsQuery,
    page: ParticipantsPage,
  });
  app.get(
    '/v1/competitions/:event_id/participants',
    { config: participants.config, schema: { ...participants.schema, params: ParticipantsParams } },
    lists.byQuery(lists.source(competitions.participants), (_query, request) => competitions.participants.filters(request.params as ParticipantsParams)),
  );
};
