import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { EQUIVALENCY_KINDS, equivalencyKey } from '../../shared/credit/equivalency';
import type { AppDatabase } from '../db/database';
import { equivalencies } from '../db/schema';
import { devToolsGuard } from '../http/dev-tools-access';
import type { ZodTypeProvider } from '../http/zod-validation';
import type { CreditService } from './credit-service';

const code = z.string().trim().min(1).max(40);
const seedBody = z.strictObject({
  ceeb: z.string().regex(/^[0-9]{4,6}$/),
  rows: z
    .array(
      z.strictObject({
        subject: code,
        number: code,
        local_course: z.string().max(40),
        units: z.number().min(0).max(30),
        kind: z.enum(EQUIVALENCY_KINDS),
        satisfies: z.array(code).max(20).default([]),
      }),
    )
    .min(1)
    .max(200),
});

/**
 * A college's equivalency table written straight into the database, for the end-to-end tests
 * only: their server keeps its embedded database locked. app.ts registers it only when NODE_ENV
 * is test, and it answers only this machine and the holder of the development tools key. The
 * applications with that college are mapped again, as after an import.
 */
export const creditTestRoutes: FastifyPluginAsync<{
  db: AppDatabase;
  credit: CreditService;
  devToolsKey: string;
}> = async (parent, { db, credit, devToolsKey }) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', devToolsGuard(devToolsKey));

  app.post('/test/equivalencies', { schema: { body: seedBody } }, async (request) => {
    const { ceeb, rows } = request.body;
    await db
      .insert(equivalencies)
      .values(
        rows.map((row, index) => ({
          sendingCeeb: ceeb,
          courseKey: equivalencyKey(row.subject, row.number),
          subject: row.subject,
          number: row.number,
          title: `${row.subject} ${row.number}`,
          units: String(row.units),
          localCourse: row.local_course,
          localUnits: String(row.units),
          kind: row.kind,
          satisfies: row.satisfies,
          line: index + 2,
        })),
      )
      .onConflictDoNothing();
    return { refreshed: await credit.refreshColleges([ceeb]) };
  });
};
