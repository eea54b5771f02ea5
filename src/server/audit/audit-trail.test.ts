import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/database';
import { auditEvents } from '../db/schema';
import { rewriteTrail, withoutTriggers } from '../test/audit-tampering';
import { createTestDatabase, type DatabaseKind, databaseKinds } from '../test/test-database';
import { auditKeyring } from './audit-keys';
import {
  type AuditCheckpointMark,
  type AuditEntry,
  createAuditTrail,
  entryHash,
  GENESIS_HASH,
} from './audit-trail';

const KEY = 'audit-trail-test-key-0123456789abcdef';
const NEXT_KEY = 'audit-trail-next-key-0123456789abcdef';
const keys = auditKeyring(KEY);

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

describe.each(databaseKinds)('audit trail on %s', (kind: DatabaseKind) => {
  // Each test has a trail of its own: a chain is one per database.
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function trailOf(entries: number) {
    database = await createTestDatabase(kind);
    const trail = createAuditTrail(database.db, keys);
    for (let n = 1; n <= entries; n++) await trail.record(entry(n));
    return { db: database.db, trail };
  }

  it('chains each entry to the previous one and verifies the whole chain', async () => {
    const { db, trail } = await trailOf(3);
    expect(await trail.verify()).toEqual({ ok: true, entries: 3, unsigned: 0, checkpoints: 0 });

    const rows = await db.select().from(auditEvents).orderBy(asc(auditEvents.seq));
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3]);
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    expect(rows[1]?.prevHash).toBe(rows[0]?.hash);
    expect(rows[2]?.prevHash).toBe(rows[1]?.hash);
    for (const row of rows) expect(entryHash(row)).toBe(row.hash);
    for (const row of rows) expect(row).toMatchObject({ keyId: keys.current.id });
    expect(new Set(rows.map((row) => row.mac)).size).toBe(3);
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
    expect(await trail.verify()).toEqual({ ok: true, entries: 0, unsigned: 0, checkpoints: 0 });
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

  it('names the entry whose hash was recomputed after a change: its MAC no longer matches', async () => {
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
    expect(result).toMatchObject({ ok: false, brokenAt: 2 });
    expect(result.ok === false && result.reason).toMatch(/its MAC does not match/);
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

  it('names the entry edited and every hash after it recomputed: its MAC needs the key', async () => {
    const { db, trail } = await trailOf(4);
    await rewriteTrail(db, 2, { actorLabel: 'someone-else@example.edu' });
    // What the chain without a key could not tell: every hash and link checks out again.
    const rows = await db.select().from(auditEvents).orderBy(asc(auditEvents.seq));
    for (const row of rows) expect(entryHash(row)).toBe(row.hash);
    const result = await trail.verify();
    expect(result).toMatchObject({ ok: false, brokenAt: 2, entries: 1 });
    expect(result.ok === false && result.reason).toMatch(/its MAC does not match/);
  });

  it('names the first entry whose MAC was removed after signed ones', async () => {
    const { db, trail } = await trailOf(4);
    await rewriteTrail(db, 3, { ip: '203.0.113.7' }, { stripMacs: true });
    const result = await trail.verify();
    expect(result).toMatchObject({ ok: false, brokenAt: 3 });
    expect(result.ok === false && result.reason).toMatch(/has no MAC though the entry before/);
  });

  it('keeps entries written before the key verifiable, sealed by the first signed entry', async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    // Entries as the chain wrote them before it had a key: a hash, no MAC.
    let prevHash = GENESIS_HASH;
    for (const seq of [1, 2]) {
      const row = {
        seq,
        at: new Date(Date.UTC(2026, 10, seq)),
        actorType: 'staff' as const,
        actorId: `staff-${seq}`,
        actorLabel: `reader${seq}@example.edu`,
        action: 'application.view',
        applicationId: APPLICATION,
        detail: { n: seq },
        ip: null,
        prevHash,
      };
      prevHash = entryHash(row);
      await db.insert(auditEvents).values({ ...row, hash: prevHash });
    }
    const trail = createAuditTrail(db, keys);
    await trail.record(entry(3));
    await trail.record(entry(4));
    expect(await trail.verify()).toEqual({ ok: true, entries: 4, unsigned: 2, checkpoints: 0 });

    await rewriteTrail(db, 1, { actorLabel: 'someone-else@example.edu' });
    const result = await trail.verify();
    expect(result).toMatchObject({ ok: false, brokenAt: 3 });
    expect(result.ok === false && result.reason).toMatch(/its MAC does not match/);
  });

  it('verifies across a key rotation while the retired key is kept, and names it when not', async () => {
    const { db } = await trailOf(2);
    const rotated = createAuditTrail(db, auditKeyring(NEXT_KEY, [KEY]));
    await rotated.record(entry(3));
    expect(await rotated.verify()).toMatchObject({ ok: true, entries: 3 });

    const result = await createAuditTrail(db, auditKeyring(NEXT_KEY)).verify();
    expect(result).toMatchObject({ ok: false, brokenAt: 1 });
    expect(result.ok === false && result.reason).toContain(`key id ${keys.current.id}`);
  });

  it('compares the trail with checkpoints and names entries removed from the end', async () => {
    const { db, trail } = await trailOf(3);
    const head = await trail.head();
    const mark: AuditCheckpointMark = { ...head, at: '2026-11-28T06:00:00.000Z', source: 'test' };
    expect(await trail.verify([mark])).toMatchObject({ ok: true, entries: 3, checkpoints: 1 });

    await withoutTriggers(db, () => db.delete(auditEvents).where(eq(auditEvents.seq, 3)));
    expect(await trail.verify([mark])).toEqual({
      ok: false,
      entries: 2,
      brokenAt: 3,
      reason:
        'entries 3 to 3 are missing: the checkpoint of 2026-11-28T06:00:00.000Z (test) names ' +
        'entry 3, and the newest entry is 2 (the newest entries were removed)',
    });
  });

  it('names the entry that differs from a checkpoint', async () => {
    const { trail } = await trailOf(3);
    const mark: AuditCheckpointMark = {
      seq: 2,
      hash: GENESIS_HASH,
      mac: null,
      at: '2026-11-28T06:00:00.000Z',
      source: 'test',
    };
    const result = await trail.verify([mark]);
    expect(result).toMatchObject({ ok: false, brokenAt: 2 });
    expect(result.ok === false && result.reason).toMatch(/differs from the checkpoint of/);
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
    expect(await trail.verify()).toMatchObject({ ok: true, entries: 2 });
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
    expect(await trail.verify()).toMatchObject({ ok: true, entries: 2 });
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
      expect(await trail.verify()).toMatchObject({ ok: true, entries: 20 });
    },
  );
});
