import { desc } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { outbox } from '../db/schema';

export type OutboxRow = typeof outbox.$inferSelect;

/** The outbox that keeps mail when there is no SMTP server. */
export function createOutboxStore(db: AppDatabase) {
  return {
    async add(
      message: { to: string; subject: string; text: string; html: string },
      tx: Executor = db,
    ): Promise<void> {
      await tx.insert(outbox).values(message);
    },

    /** The newest messages first. */
    async latest(limit: number, tx: Executor = db): Promise<OutboxRow[]> {
      return tx.select().from(outbox).orderBy(desc(outbox.id)).limit(limit);
    },
  };
}
