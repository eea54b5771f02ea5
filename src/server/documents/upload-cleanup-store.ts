import { and, eq, inArray, lt, notExists, sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { documentAnswers, documentUploads } from '../db/schema';

/** Upload keys nobody used, for the clean-up that removes them. */
export function createUploadCleanupStore(db: AppDatabase) {
  return {
    /** Keys that expired over an hour ago and no answer holds, at most `limit` of them. */
    async expiredUnusedKeys(limit: number, tx: Executor = db): Promise<string[]> {
      const rows = await tx
        .select({ fileKey: documentUploads.fileKey })
        .from(documentUploads)
        .where(
          and(
            lt(documentUploads.expiresAt, sql`now() - interval '1 hour'`),
            // A key in use by an answer belongs to that answer, whatever its upload row says.
            notExists(
              tx
                .select({ one: sql`1` })
                .from(documentAnswers)
                .where(eq(documentAnswers.fileKey, documentUploads.fileKey)),
            ),
          ),
        )
        .limit(limit);
      return rows.map((row) => row.fileKey);
    },

    async deleteUploads(keys: string[], tx: Executor = db): Promise<void> {
      await tx.delete(documentUploads).where(inArray(documentUploads.fileKey, keys));
    },
  };
}
