import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { sendCachedJson } from '../../platform/http/cached-json.js';
import { CLIENT_SECURITY } from '../../platform/http/openapi.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import type { Paging } from '../../platform/pagination.js';
import { createReferencesRepository } from './references.repository.js';
import {
  BettingMarketPage,
  BettingMarketsQuery,
  LeaguePage,
  LeaguesQuery,
  OperatorPage,
  OperatorsQuery,
  PlayerPage,
  PlayersQuery,
  SportPage,
  SportsQuery,
  TeamPage,
  TeamsQuery,
} from './references.schemas.js';
import { createReferencesService, type ReferenceList } from './references.service.js';

const TAGS = ['references'];

/**
 * GET /v1/references/*: the reference lists of DESIGN.md §5. A repeated request is a cache
 * lookup answered with JSON rendered once per data version (no query, no serialization).
 */
export const referencesRoutes: ModuleRoutes = async (app, ctx) => {
  const references = createReferencesService({
    repository: createReferencesRepository(ctx.database.db),
    cache: ctx.readCache,
    keys: ctx.keys,
  });

  function route<Q extends Paging>(path: string, summary: string, querystring: TSchema, response: TSchema, list: ReferenceList<Q, unknown>): void {
    app.route({
      method: 'GET',
      url: `/v1/references/${path}`,
      onRequest: app.authenticate,
      schema: { tags: TAGS, summary, security: CLIENT_SECURITY, querystring, response: { 200: response } },
      // The querystring schema has validated and defaulted the query: it is a Q.
      handler: (request: FastifyRequest, reply: FastifyReply) => {
        const query = request.query as Q;
        return sendCachedJson(reply, ctx.readCache, list.cacheKey(query), () => list.page(query));
      },
    });
  }

  route('sports', 'List sports', SportsQuery, SportPage, references.sports);
  route('leagues', 'List leagues, by sport', LeaguesQuery, LeaguePage, references.leagues);
  route('teams', 'List teams, by league', TeamsQuery, TeamPage, references.teams);
  route('players', 'List players, by team or league', PlayersQuery, PlayerPage, references.players);
  route('operators', 'List operators (sportsbooks)', OperatorsQuery, OperatorPage, references.operators);
  route('betting-markets', 'List betting markets, by sport', BettingMarketsQuery, BettingMarketPage, references.bettingMarkets);
};
