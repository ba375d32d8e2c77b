import type { TObject, TSchema } from 'typebox';
import type { ModuleRoutes, QueryOf } from '../../platform/http/types.js';
import { listRoute } from '../../platform/lists/list-route.js';
import { type PagedLists, sendPage } from '../../platform/lists/paged-lists.js';
import type { ClientPolicy } from '../policy/index.js';
import {
  BettingMarketCategoriesQuery,
  BettingMarketCategoryPage,
  BettingMarketPage,
  BettingMarketPositionPage,
  BettingMarketPositionsQuery,
  BettingMarketsQuery,
  CountriesQuery,
  CountryPage,
  EventPeriodPage,
  EventPeriodsQuery,
  PlayerStatisticPage,
  PlayerStatisticsQuery,
  LeaguePage,
  LeaguesQuery,
  OddsFormatPage,
  OddsFormatsQuery,
  OperatorPage,
  OperatorsQuery,
  PlayerPage,
  PlayersQuery,
  SportPage,
  SportsQuery,
  TeamPage,
  TeamsQuery,
} from './references.schemas.js';
import type { ReferenceList } from './reference-list.js';
import type { ReferencesService } from './references.service.js';
import {
  SubnationalRegionPage,
  SubnationalRegionsQuery,
  TagChildrenPage,
  TagChildrenParams,
  TagChildrenQuery,
  TagDimensionPage,
  TagDimensionsQuery,
  TagTypePage,
  TagTypesSearchQuery,
} from './taxonomy.schemas.js';

/** GET /v1/references/*: the reference lists (docs/api.md#references), filters and paging in the query string. */
export const referencesRoutes: ModuleRoutes<{ lists: PagedLists; references: ReferencesService }> = async (app, { lists, references }) => {
  /** `errors`: an unknown id or key is 404, a key that names several records 409. */
  function route<S extends TObject, F, T>(path: string, summary: string, query: S, response: TSchema, list: ReferenceList<QueryOf<S>, F, T>, errors: ClientPolicy['errors'] = []): void {
    app.get(
      `/v1/references/${path}`,
      listRoute({ config: { policy: { ...REFERENCES, errors } }, tag: 'references', summary, querystring: query, page: response }),
      lists.byQuery(lists.source(list), list.filters),
    );
  }

  const byKey = ['NOT_FOUND', 'AMBIGUOUS_LOOKUP'] as const;
  route('sports', 'List sports', SportsQuery, SportPage, references.sports);
  route('leagues', 'List leagues, by sport', LeaguesQuery, LeaguePage, references.leagues, byKey);
  route('teams', 'List teams, by league', TeamsQuery, TeamPage, references.teams, byKey);
  route('players', 'List players, by team or league', PlayersQuery, PlayerPage, references.players, byKey);
  route('operators', 'List operators (sportsbooks)', OperatorsQuery, OperatorPage, references.operators);
  route('betting-markets', 'List betting markets, by sport', BettingMarketsQuery, BettingMarketPage, references.bettingMarkets, ['NOT_FOUND']);
  route('countries', 'List countries', CountriesQuery, CountryPage, references.countries);
  route('betting-market-categories', 'List betting-market categories, by sport', BettingMarketCategoriesQuery, BettingMarketCategoryPage, references.bettingMarketCategories, byKey);
  route('betting-market-positions', 'List betting-market positions (sides)', BettingMarketPositionsQuery, BettingMarketPositionPage, references.bettingMarketPositions);
  route('event-periods', 'List event periods (halves, quarters, sets), by sport', EventPeriodsQuery, EventPeriodPage, references.eventPeriods, byKey);
  route('player-statistics', 'List the player statistics props settle on, by sport', PlayerStatisticsQuery, PlayerStatisticPage, references.playerStatistics, byKey);
  route('odds-format', 'List the odds formats the odds endpoints take', OddsFormatsQuery, OddsFormatPage, references.oddsFormats);

  const { taxonomy } = references;
  route('subnational-regions', 'List the regions (states, provinces) of a country', SubnationalRegionsQuery, SubnationalRegionPage, taxonomy.subnationalRegions, ['NOT_FOUND']);
  route('tag-dimensions', 'List the dimensions of the flow tag taxonomy', TagDimensionsQuery, TagDimensionPage, taxonomy.tagDimensions);
  route('tag-types/search', 'Search the tag types of the flow tag taxonomy', TagTypesSearchQuery, TagTypePage, taxonomy.tagTypesSearch);

  // Not a plain list: the page names the tag type it drills into, and the path carries it.
  const children = lists.source(taxonomy.tagTypeChildren);
  app.get(
    '/v1/references/tag-types/:tag_type_id/children',
    {
      config: { policy: { ...REFERENCES, errors: ['NOT_FOUND'] } },
      schema: {
        tags: ['references'],
        summary: 'List the child tag types of a tag type',
        params: TagChildrenParams,
        querystring: TagChildrenQuery,
        response: { 200: TagChildrenPage },
      },
    },
    async (request, reply) => {
      const { tag_type_id } = request.params;
      const parent = await taxonomy.tagType(tag_type_id);
      const { page, page_size } = request.query;
      const found = await children.page(taxonomy.tagTypeChildren.filters({ ...request.query, tag_type_id }), { page, page_size });
      const answer = { parent, ...found };
      return sendPage(reply, answer);
    },
  );
};

/** Reference data: every tier, charged against the minute and the day, kept by the client's own cache. */
const REFERENCES: ClientPolicy = { auth: 'client', tier: 'basics', limit: 'data', usage: 'references', cache: 'data' };
