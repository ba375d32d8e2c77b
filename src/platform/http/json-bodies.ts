import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies, and no other media type: Fastify's parser (with prototype-poisoning protection), except that an empty
 * body is no body. A POST without a body then means "all defaults" (e.g. first page of flows),
 * and required fields are reported as missing (422) rather than as unparsable JSON.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // Fastify reads text/plain as a string, which then failed the body schema as "must be object"
  // (decision 0071). Without the parser it is refused like any other media type: "send the body as
  // application/json", the same help a form-encoded body gets.
  app.removeContentTypeParser('text/plain');
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
