import { and, eq, or, sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { rateLimits } from '../db/schema';

export interface WindowKey {
  key: string;
  windowStart: Date;
}

/** Fixed-window counters, one row per key and window. */
export function createRateLimitStore(db: AppDatabase) {
  return {
    /** Inserts or increments the window's counter in one statement; the count after. */
    async increment({ key, windowStart }: WindowKey, tx: Executor = db): Promise<number> {
      const [row] = await tx
        .insert(rateLimits)
        .values({ key, windowStart, hits: 1 })
        .onConflictDoUpdate({
          target: [rateLimits.key, rateLimits.windowStart],
          set: { hits: sql`${rateLimits.hits} + 1` },
        })
        .returning({ hits: rateLimits.hits });
      return row?.hits ?? 0;
    },

    async deleteOlderThanADay(tx: Executor = db): Promise<void> {
      await tx.delete(rateLimits).where(sql`${rateLimits.windowStart} < now() - interval '1 day'`);
    },

    /** The rows of those windows that exist, in one statement. */
    async find(keys: WindowKey[], tx: Executor = db): Promise<Array<WindowKey & { hits: number }>> {
      return tx
        .select({ key: rateLimits.key, windowStart: rateLimits.windowStart, hits: rateLimits.hits })
        .from(rateLimits)
        .where(
          or(
            ...keys.map(({ key, windowStart }) =>
              and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart)),
            ),
          ),
        );
    },
  };
}
