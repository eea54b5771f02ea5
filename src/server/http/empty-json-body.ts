import type { FastifyInstance } from 'fastify';

/**
 * Spec 000 section 7: the browser sends `Content-Type: application/json` with every call, also
 * with those that carry no payload (submit, keep-alive, deletes). Fastify refuses an empty JSON
 * body, so here a route that declares no body schema receives an empty one as no body, while a
 * route that declares one still hears that its body is missing.
 */
export function registerEmptyJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request, body: string, done) => {
      if (body === '' && request.routeOptions.schema?.body === undefined) {
        done(null, undefined);
        return;
      }
      parseJson(request, body, done);
    },
  );
}
