import type { FastifyInstance } from 'fastify';

/**
 * Every response is `Cache-Control: no-store` unless its route says otherwise: personal data must
 * never sit in a shared cache or the browser's disk cache, and a route that forgot would leak.
 * The web app's files, the tenant's branding and the school lists set their own, cacheable, value.
 */
export function registerNoStoreDefault(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
