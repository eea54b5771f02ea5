import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';

const LOCK = 7_311_042;
/** The test database's pool size (src/server/test/test-database.ts). */
const POOL_SIZE = 20;

describe.runIf(process.env.DATABASE_URL)('submit on PostgreSQL', () => {
  it('is answered while every connection of the main pool is taken', async () => {
    const app = await buildTestApp('postgres');
    try {
      const cookie = await signedInApplicant(app, 'reserved.pool@example.edu');
      expect(
        (await callAs(app, cookie, 'PUT', '/api/answer', validApplicationAnswers())).statusCode,
      ).toBe(200);

      const db = testDatabaseOf(app);
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding = () => {};
      const held = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const holder = db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${LOCK})`);
        holding();
        await released;
      });
      await held;
      // Every other connection of the pool waits for the lock the holder keeps (a query runs
      // once something waits for it).
      const waiters = Array.from({ length: POOL_SIZE - 1 }, () =>
        db.execute(sql`select pg_advisory_xact_lock(${LOCK})`).then(() => undefined),
      );

      const pool = (db as unknown as { $client: { totalCount: number; idleCount: number } })
        .$client;
      await expect.poll(() => pool.totalCount === POOL_SIZE && pool.idleCount === 0).toBe(true);

      const submit = await callAs(app, cookie, 'POST', '/api/submit');
      expect(submit.statusCode).toBe(200);

      release();
      await Promise.all([holder, ...waiters]);
    } finally {
      await app.close();
    }
  });
});
