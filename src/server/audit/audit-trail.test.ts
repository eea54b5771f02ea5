import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDatabase, DatabaseHandle } from '../db/database';
import { auditEvents } from '../db/schema';
import { createTestDatabase, type DatabaseKind, databaseKinds } from '../test/test-database';
import { type AuditEntry, createAuditTrail, entryHash, GENESIS_HASH } from './audit-trail';

const APPLICATION = '0b6f3c1e-8d4a-4a51-9d0e-2f6c8a7b5e11';

function entry(n: number): AuditEntry {
  return {
    actor: { type: 'staff', id: `staff-${n}`, label: `reader${n}@example.edu` },
    action: 'application.view',
    applicationId: APPLICATION,
    // Keys out of order, and a nested object: jsonb keeps its own order, the hash must not care.
    detail: { what: 'view', n, nested: { z: 1, a: [1, 'two'] } },
    ip: '192.0.2.10',
  };
}

/** The message of a refused statement and of its cause (the driver's error). */
async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return `${(error as Error).message} ${cause instanceof Error ? cause.message : ''}`;
  }
  return 'not refused';
}

/** Runs statements the triggers refuse, as someone with the rights to switch them off would. */
async function withoutTriggers(db: AppDatabase, work: () => Promise<unknown>): Promise<void> {
  await db.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
  try {
    await work();
  } finally {
    await db.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
  }
}

describe.each(databaseKinds)('audit trail on %s', (kind: DatabaseKind) => {
  // Each test has a trail of its own: a chain is one per database.
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function trailOf(entries: number) {
    database = await createTestDatabase(kind);
    const trail = createAuditTrail(database.db);
    for (let n = 1; n <= entries; n++) await trail.record(entry(n));
    return { db: database.db, trail };
  }

  it('chains each entry to the previous one and verifies the whole chain', async () => {
    const { db, trail } = await trailOf(3);
    expect(await trail.verify()).toEqual({ ok: true, entries: 3 });

    const rows = await db.select().from(auditEvents).orderBy(asc(auditEvents.seq));
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3]);
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    expect(rows[1]?.prevHash).toBe(rows[0]?.hash);
    expect(rows[2]?.prevHash).toBe(rows[1]?.hash);
    for (const row of rows) expect(entryHash(row)).toBe(row.hash);
    expect(rows[0]).toMatchObject({
      actorType: 'staff',
      actorId: 'staff-1',
      actorLabel: 'reader1@example.edu',
      action: 'application.view',
      applicationId: APPLICATION,
      detail: { what: 'view', n: 1, nested: { z: 1, a: [1, 'two'] } },
      ip: '192.0.2.10',
    });
  });

  it('verifies an empty trail', async () => {
    const { trail } = await trailOf(0);
    expect(await trail.verify()).toEqual({ ok: true, entries: 0 });
  });

  it('names the entry whose contents were changed', async () => {
    const { db, trail } = await trailOf(3);
    await withoutTriggers(db, () =>
      db
        .update(auditEvents)
        .set({ detail: { what: 'nothing to see' } })
        .where(eq(auditEvents.seq, 2)),
    );
    const result = await trail.verify();
    expect(result).toMatchObject({ ok: false, brokenAt: 2, entries: 1 });
    expect(result.ok === false && result.reason).toMatch(/contents do not match its hash/);
  });

  it('names the entry whose hash was recomputed after a change: the next link breaks', async () => {
    const { db, trail } = await trailOf(3);
    const [row] = await db.select().from(auditEvents).where(eq(auditEvents.seq, 2));
    if (!row) throw new Error('no entry 2');
    const forged = { ...row, actorLabel: 'someone-else@example.edu' };
    await withoutTriggers(db, () =>
      db
        .update(auditEvents)
        .set({ actorLabel: forged.actorLabel, hash: entryHash(forged) })
        .where(eq(auditEvents.seq, 2)),
    );
    const result = await trail.verify();
    expect(result).toMatchObject({ ok: false, brokenAt: 3 });
    expect(result.ok === false && result.reason).toMatch(/link to the previous entry/);
  });

  it('reports the gap a deleted entry leaves', async () => {
    const { db, trail } = await trailOf(3);
    await withoutTriggers(db, () => db.delete(auditEvents).where(eq(auditEvents.seq, 2)));
    expect(await trail.verify()).toEqual({
      ok: false,
      entries: 1,
      brokenAt: 2,
      reason: 'entry 2 is missing (the next is 3)',
    });
  });

  it('refuses UPDATE, DELETE and TRUNCATE while the triggers are on', async () => {
    const { db, trail } = await trailOf(2);
    expect(
      await refusal(
        db.update(auditEvents).set({ ip: '203.0.113.9' }).where(eq(auditEvents.seq, 1)),
      ),
    ).toMatch(/audit_events is append-only: UPDATE is refused/);
    expect(await refusal(db.delete(auditEvents).where(eq(auditEvents.seq, 2)))).toMatch(
      /audit_events is append-only: DELETE is refused/,
    );
    expect(await refusal(db.execute(sql`truncate audit_events`))).toMatch(
      /audit_events is append-only: TRUNCATE is refused/,
    );
    expect(await trail.verify()).toEqual({ ok: true, entries: 2 });
  });

  it('rolls an entry back with the transaction it was recorded in', async () => {
    const { db, trail } = await trailOf(1);
    await expect(
      db.transaction(async (tx) => {
        await trail.record(entry(2), tx);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    await trail.record(entry(3));
    const rows = await db.select({ seq: auditEvents.seq }).from(auditEvents);
    expect(rows.map((row) => row.seq).sort()).toEqual([1, 2]);
    expect(await trail.verify()).toEqual({ ok: true, entries: 2 });
  });

  it.runIf(kind === 'postgres')(
    'keeps one unbroken chain when many servers record at once',
    async () => {
      const { db, trail } = await trailOf(0);
      await Promise.all(Array.from({ length: 20 }, (_, n) => trail.record(entry(n + 1))));
      const rows = await db.select({ seq: auditEvents.seq }).from(auditEvents);
      expect(rows.map((row) => row.seq).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, n) => n + 1),
      );
      expect(await trail.verify()).toEqual({ ok: true, entries: 20 });
    },
  );
});
