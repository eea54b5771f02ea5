import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { EQUIVALENCY_KINDS } from '../../shared/credit/equivalency';
import type { AppDatabase } from '../db/database';
import { devToolsGuard } from '../http/dev-tools-access';
import type { ZodTypeProvider } from '../http/zod-validation';
import { createCreditTestStore } from './credit-test-store';

const body = z.strictObject({
  ceeb: z.string().regex(/^\d{4,6}$/),
  rows: z
    .array(
      z.strictObject({
        subject: z.string().min(1).max(20),
        number: z.string().min(1).max(20),
        local_course: z.string().max(40),
        local_units: z.string().regex(/^\d+(\.\d+)?$/),
        kind: z.enum(EQUIVALENCY_KINDS),
        satisfies: z.array(z.string().max(40)).max(20),
      }),
    )
    .max(200),
});

/**
 * An equivalency table for the end-to-end tests only (their server keeps its embedded database
 * locked). app.ts registers it only when NODE_ENV is test; it answers only this machine and the
 * holder of the development tools key.
 */
export const creditTestRoutes: FastifyPluginAsync<{
  db: AppDatabase;
  devToolsKey: string;
}> = async (parent, options) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const store = createCreditTestStore(options.db);
  app.addHook('onRequest', devToolsGuard(options.devToolsKey));
  app.post('/dev/equivalencies', { schema: { body } }, async (request) => {
    await store.addEquivalencies(request.body.ceeb, request.body.rows);
    return { added: request.body.rows.length };
  });
};
