import type { FastifyPluginAsync } from 'fastify';
import type { DatabaseHandle } from '../db/database';

const READINESS_TIMEOUT_MS = 2000;

export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (
  app,
  { database },
) => {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    try {
      await withTimeout(database.ping(), READINESS_TIMEOUT_MS);
      return { status: 'ready', database: database.kind };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.status(503).send({ message: 'The database is not answering.' });
    }
  });
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
