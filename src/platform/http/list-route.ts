import type { Static, TSchema } from 'typebox';
import type { CachedPage } from '../cache/id-pages.js';
import type { ReadCache } from '../cache/read-cache.js';
import { sendCachedJson } from './cached-json.js';
import { CLIENT_SECURITY } from './openapi.js';
import type { App } from './types.js';

export interface PostListRoute<B extends TSchema, T> {
  url: string;
  tag: string;
  summary: string;
  description: string;
  body: B;
  response: TSchema;
  /** The page a validated body asks for: its cache key, and how to render it on a miss. */
  page: (body: Static<B>) => CachedPage<T>;
}

/**
 * A POST list endpoint of the data API: authenticated as the flow matrix allows, paging and
 * filters in the JSON body (validated by `body`), answered from the read cache.
 */
export function postListRoute<B extends TSchema, T>(app: App, cache: ReadCache, route: PostListRoute<B, T>): void {
  app.post(
    route.url,
    {
      onRequest: app.authenticate,
      schema: {
        tags: [route.tag],
        summary: route.summary,
        description: route.description,
        security: CLIENT_SECURITY,
        body: route.body,
        response: { 200: route.response },
      },
    },
    async (request, reply) => {
      // The body schema has validated and defaulted the body: it is a Static<B>.
      const page = route.page(request.body as Static<B>);
      return sendCachedJson(reply, cache, page.key, page.render);
    },
  );
}
