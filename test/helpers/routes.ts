import diagnostics from 'node:diagnostics_channel';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** A route as it was added: its options (which the route policies then complete) and the file that added it. */
export interface AddedRoute {
  method: string;
  url: string;
  options: RouteOptions;
  /** The file under src/ whose code added it (`modules/events/events.routes.ts`); undefined for a plugin's own routes. */
  file: string | undefined;
}

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * Records every route of the apps built while `build` runs, from the moment each Fastify instance
 * is made (Fastify announces it on the `fastify.initialization` channel): the options object is the
 * one every onRoute hook receives, so what the route policies add to it shows here too.
 */
export async function recordRoutes<T>(build: () => Promise<T>): Promise<{ built: T; routes: AddedRoute[] }> {
  const routes: AddedRoute[] = [];
  const onInstance = (message: unknown) => {
    const fastify = (message as { fastify: FastifyInstance }).fastify;
    fastify.addHook('onRoute', (options) => {
      const methods = Array.isArray(options.method) ? options.method : [options.method];
      for (const method of methods) routes.push({ method: String(method), url: options.url, options, file: callerFile() });
    });
  };
  diagnostics.subscribe('fastify.initialization', onInstance);
  try {
    return { built: await build(), routes };
  } finally {
    diagnostics.unsubscribe('fastify.initialization', onInstance);
  }
}

/** The innermost file of src/modules/ on the stack, where the route was declared. */
function callerFile(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const line of stack.split('\n')) {
    const path = /\((?:file:\/\/)?([^():]+):\d+:\d+\)$|at (?:file:\/\/)?([^():\s]+):\d+:\d+$/.exec(line.trim());
    const file = path?.[1] ?? path?.[2];
    if (file?.startsWith(`${SRC}modules${sep}`)) return relative(SRC, file).split(sep).join('/');
  }
  return undefined;
}
