import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies: Fastify's parser (with prototype-poisoning protection), except that an empty
 * body is no body. A POST without a body then means "all defaults" (e.g. first page of flows),
 * and required fields are reported as missing (422) rather than as unparsable JSON.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    done();
  });
}
