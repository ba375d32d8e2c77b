import type { TObject, TSchema } from 'typebox';
import type { ModuleRoutes, QueryOf } from '../../platform/http/types.js';
import type { PagedLists } from '../../platform/lists/paged-lists.js';
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
import type { ReferenceList, ReferencesService } from './references.service.js';

/** GET /v1/references/*: the reference lists (docs/api.md#references), filters and paging in the query string. */
export const referencesRoutes: ModuleRoutes<{ lists: PagedLists; references: ReferencesService }> = async (app, { lists, references }) => {
  function route<S extends TObject, F, T>(path: string, summary: string, query: S, response: TSchema, list: ReferenceList<QueryOf<S>, F, T>): void {
    lists.get(app, { url: `/v1/references/${path}`, tag: 'references', summary, query, response, filters: list.filters, source: lists.source(list) });
  }

  route('sports', 'List sports', SportsQuery, SportPage, references.sports);
  route('leagues', 'List leagues, by sport', LeaguesQuery, LeaguePage, references.leagues);
  route('teams', 'List teams, by league', TeamsQuery, TeamPage, references.teams);
  route('players', 'List players, by team or league', PlayersQuery, PlayerPage, references.players);
  route('operators', 'List operators (sportsbooks)', OperatorsQuery, OperatorPage, references.operators);
  route('betting-markets', 'List betting markets, by sport', BettingMarketsQuery, BettingMarketPage, references.bettingMarkets);
  route('countries', 'List countries', CountriesQuery, CountryPage, references.countries);
  route('betting-market-categories', 'List betting-market categories, by sport', BettingMarketCategoriesQuery, BettingMarketCategoryPage, references.bettingMarketCategories);
  route('betting-market-positions', 'List betting-market positions (sides)', BettingMarketPositionsQuery, BettingMarketPositionPage, references.bettingMarketPositions);
  route('event-periods', 'List event periods (halves, quarters, sets), by sport', EventPeriodsQuery, EventPeriodPage, references.eventPeriods);
  route('odds-format', 'List the odds formats the odds endpoints take', OddsFormatsQuery, OddsFormatPage, references.oddsFormats);
};
