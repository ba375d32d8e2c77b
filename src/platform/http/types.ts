import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Principal } from '../auth/authenticate.js';

/** The Fastify instance with TypeBox types: handlers see typed bodies and queries. */
export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** A feature module's routes, registered by app.ts inside their own encapsulated scope. */
export type ModuleRoutes = (app: App, ctx: AppContext) => Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticate` hook on every client route. */
    principal: Principal;
  }
  interface FastifyInstance {
    /** onRequest hook: accepts X-API-Key or Bearer as the flow matrix allows, else 401. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}
