import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../accounts/secrets';
import type { DatabaseHandle } from '../db/database';
import { oidcSignIns, staffMembers, staffSessions } from '../db/schema';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { deleteExpiredRecords } from './retention';

describe.each(databaseKinds)('expired staff records on %s', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('deletes staff sessions and sign-in hand-shakes that ended, and keeps the rest', async () => {
    const { db } = database;
    const [member] = await db
      .insert(staffMembers)
      .values({ email: 'reader@example.edu', role: 'reader' })
      .returning({ id: staffMembers.id });
    const staffId = member?.id as string;
    const hour = 3_600_000;
    const session = (name: string, expiresIn: number, revokedAgo?: number) => ({
      tokenHash: sha256(name),
      staffId,
      stage: 'signed_in' as const,
      method: 'password' as const,
      expiresAt: new Date(Date.now() + expiresIn),
      revokedAt: revokedAgo === undefined ? null : new Date(Date.now() - revokedAgo),
    });
    await db
      .insert(staffSessions)
      .values([
        session('expired', -2 * hour),
        session('signed-out', hour, 2 * hour),
        session('live', hour),
      ]);
    await db.insert(oidcSignIns).values([
      {
        stateHash: 'old',
        nonce: 'n',
        codeVerifier: 'v',
        expiresAt: new Date(Date.now() - 2 * hour),
      },
      { stateHash: 'new', nonce: 'n', codeVerifier: 'v', expiresAt: new Date(Date.now() + hour) },
    ]);

    const report = await db.transaction((tx) =>
      deleteExpiredRecords(tx, new Date(Date.now() - hour)),
    );

    expect(report.sessions).toBe(2);
    const left = await db.select({ tokenHash: staffSessions.tokenHash }).from(staffSessions);
    expect(left).toEqual([{ tokenHash: sha256('live') }]);
    const handshakes = await db.select({ stateHash: oidcSignIns.stateHash }).from(oidcSignIns);
    expect(handshakes).toEqual([{ stateHash: 'new' }]);
    expect(await db.select().from(staffMembers)).toHaveLength(1);
  });
});
