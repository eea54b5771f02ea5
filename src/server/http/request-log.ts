import type { FastifyInstance } from 'fastify';

/**
 * One line per request, written when the response is done: method, address (query secrets
 * redacted by the logger's serializer), status, time taken, the request id and, once bound, who
 * it acted for. Fastify's default writes a second line as each request arrives; at a few
 * thousand saves a second that line was a measurable share of the server's time and said little
 * the completed line does not. Errors still get their own line from the error handler.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    reply.log.info(
      { req: request, res: reply, responseTime: reply.elapsedTime },
      'request completed',
    );
    done();
  });
}
