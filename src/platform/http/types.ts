import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { TSchema } from 'typebox';

/** The Fastify instance with TypeBox types: handlers see typed bodies and queries. */
export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/**
 * A feature's routes, registered by the composition root (app.ts) inside their own
 * encapsulated scope, with exactly the services the feature uses.
 */
export type ModuleRoutes<Deps = void> = (app: App, deps: Deps) => Promise<void>;

/**
 * What the type provider makes of a query-string, body or path-parameters schema: `Static<S>` for any concrete
 * schema. Generic code (a route helper) names the request's type this way, so that the type
 * provider still types the handler instead of a cast.
 */
export type QueryOf<S extends TSchema> = FastifyRequest<RouteGenericInterface, Server, IncomingMessage, { querystring: S }, TypeBoxTypeProvider>['query'];
export type BodyOf<S extends TSchema> = FastifyRequest<RouteGenericInterface, Server, IncomingMessage, { body: S }, TypeBoxTypeProvider>['body'];
export type ParamsOf<S extends TSchema> = FastifyRequest<RouteGenericInterface, Server, IncomingMessage, { params: S }, TypeBoxTypeProvider>['params'];
