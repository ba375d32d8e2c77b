import type { FastifyContextConfig } from 'fastify';
import type { TSchema } from 'typebox';
import { NOT_MODIFIED } from '../http/etag.js';

/** What a list route says besides its handler: its policy, and the words and schemas of its OpenAPI entry. */
export interface ListRouteWords {
  config: FastifyContextConfig;
  tag: string;
  summary: string;
  /** The entry has no description where this is absent. */
  description?: string;
}

interface ListSchema<P extends TSchema> {
  tags: string[];
  summary: string;
  description?: string;
  response: { 200: P };
}

/**
 * The `{ config, schema }` of a list route, for `app.get(url, listRoute({ ... }), lists.byQuery(...))`:
 * a GET (`querystring`) answers its page, or 304 to an ETag that still matches; a POST (`body`) answers
 * its page. Every list route's entry is then the same, keys in the same order, written once.
 */
export function listRoute<Q extends TSchema, P extends TSchema>(
  route: ListRouteWords & { querystring: Q; page: P },
): { config: FastifyContextConfig; schema: ListSchema<P> & { querystring: Q; response: { 304: typeof NOT_MODIFIED } } };
export function listRoute<B extends TSchema, P extends TSchema>(route: ListRouteWords & { body: B; page: P }): { config: FastifyContextConfig; schema: ListSchema<P> & { body: B } };
export function listRoute(route: ListRouteWords & { page: TSchema } & ({ querystring: TSchema } | { body: TSchema })): { config: FastifyContextConfig; schema: object } {
  const { config, tag, summary, description, page } = route;
  const words = { tags: [tag], summary, ...(description === undefined ? {} : { description }) };
  return 'querystring' in route
    ? { config, schema: { ...words, querystring: route.querystring, response: { 200: page, 304: NOT_MODIFIED } } }
    : { config, schema: { ...words, body: route.body, response: { 200: page } } };
}
