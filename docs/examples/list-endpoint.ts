/**
 * A list endpoint, whole: docs/architecture.md#adding-a-list-endpoint shows this file. It is
 * typechecked with the code (tsconfig.json) and registered nowhere, so the example cannot drift
 * from the building block it uses.
 */
import { type Static, Type } from 'typebox';
import type { ModuleRoutes } from '../../src/platform/http/types.js';
import { listRoute } from '../../src/platform/lists/list-route.js';
import type { ListSource, PagedLists } from '../../src/platform/lists/paged-lists.js';
import { PageOf, pagingProperties } from '../../src/platform/pagination.js';

// 1. The schema: filters and paging in, a page of items out.
const VenuesQuery = Type.Object(
  { city: Type.Optional(Type.String({ maxLength: 100, description: 'Only the venues of this city (any case).' })), ...pagingProperties(100) },
  { additionalProperties: false },
);
const Venue = Type.Object({ id: Type.Integer(), name: Type.String(), city: Type.String() }, { title: 'Venue', additionalProperties: false });
const VenuePage = PageOf(Venue, 'VenuePage');

type VenueItem = Static<typeof Venue>;
interface VenueFilters {
  city: string | null;
}

/** What the venues' repository offers the list; its SQL lives there. */
export interface VenuesRepository {
  /** The ids of a city's venues (every venue's for null), in id order. */
  ids(city: string | null): Promise<number[]>;
  /** Venues by id. */
  byIds(ids: readonly number[]): Promise<ReadonlyMap<number, VenueItem>>;
}

/** The list, as the venues' service offers it. */
export interface VenuesList extends ListSource<VenueFilters, VenueItem> {
  /** Equivalent queries give equal filters: a city in any case is one city. */
  filters(query: Static<typeof VenuesQuery>): VenueFilters;
}

// 2. the filter normaliser, 3. the ids query, 4. the item loader.
export function createVenuesList(repository: VenuesRepository): VenuesList {
  return {
    name: 'venues',
    filters: (query) => ({ city: query.city?.toLowerCase() ?? null }),
    ids: (filters) => repository.ids(filters.city),
    items: (ids) => repository.byIds(ids),
  };
}

// The route, in Fastify's one form (url, options, handler): listRoute gives the options of a list (its
// policy, and its schema with the page and the 304), the lists its handler (cache, ETag, 304, compression).
export const venuesRoutes: ModuleRoutes<{ lists: PagedLists; venues: VenuesList }> = async (app, { lists, venues }) => {
  app.get(
    '/v1/references/venues',
    listRoute({
      config: { policy: { auth: 'client', tier: 'basics', limit: 'data', usage: 'references', cache: 'data' } },
      tag: 'references',
      summary: 'List venues, by city',
      querystring: VenuesQuery,
      page: VenuePage,
    }),
    lists.byQuery(lists.source(venues), venues.filters),
  );
};
