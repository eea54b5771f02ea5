import { asc, eq, gte, sql } from 'drizzle-orm';
import { entryHash, GENESIS_HASH } from '../audit/audit-trail';
import type { AppDatabase } from '../db/database';
import { auditEvents } from '../db/schema';

/**
 * Runs statements the triggers refuse, as the table's owner, a superuser or whoever restores a
 * backup can: switch them off, work, switch them on again.
 */
export async function withoutTriggers(
  db: AppDatabase,
  work: () => Promise<unknown>,
): Promise<void> {
  await db.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
  try {
    await work();
  } finally {
    await db.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
  }
}

type Editable = Partial<
  Pick<typeof auditEvents.$inferSelect, 'actorId' | 'actorLabel' | 'action' | 'detail' | 'ip'>
>;

/**
 * What someone without the key does to hide an edit: changes entry `seq`, then recomputes the
 * unkeyed hash of it and of every entry after it, as the chain has always been computed, so every
 * hash and link checks out again. With `stripMacs` the MACs from `seq` on are removed too, so the
 * rewritten entries look as if written before the chain had a key.
 */
export async function rewriteTrail(
  db: AppDatabase,
  seq: number,
  change: Editable,
  options: { stripMacs?: boolean } = {},
): Promise<void> {
  await withoutTriggers(db, async () => {
    const [before] = await db
      .select({ hash: auditEvents.hash })
      .from(auditEvents)
      .where(eq(auditEvents.seq, seq - 1));
    let previous = before?.hash ?? GENESIS_HASH;
    const rows = await db
      .select()
      .from(auditEvents)
      .where(gte(auditEvents.seq, seq))
      .orderBy(asc(auditEvents.seq));
    for (const row of rows) {
      const edited = { ...row, ...(row.seq === seq ? change : {}), prevHash: previous };
      const hash = entryHash(edited);
      await db
        .update(auditEvents)
        .set({
          ...(row.seq === seq ? change : {}),
          prevHash: previous,
          hash,
          ...(options.stripMacs ? { mac: null, keyId: null } : {}),
        })
        .where(eq(auditEvents.seq, row.seq));
      previous = hash;
    }
  });
}

/** Removes the newest entries from `fromSeq` on, as a rollback to an older backup would. */
export async function dropNewest(db: AppDatabase, fromSeq: number): Promise<void> {
  await withoutTriggers(db, () => db.delete(auditEvents).where(gte(auditEvents.seq, fromSeq)));
}
