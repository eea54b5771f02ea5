import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { type DatabaseHandle, rowsOf } from './database';
import { readAll } from './executor';

describe.each(databaseKinds)('readAll on %s', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  /** A read that notes when it starts and ends, and answers its own label from the database. */
  function tracedRead(db: DatabaseHandle['db'], label: string, events: string[]) {
    return async () => {
      events.push(`${label} starts`);
      const rows = rowsOf<{ label: string }>(
        await db.execute(sql`select ${label}::text as label, pg_sleep(0.02)`),
      );
      events.push(`${label} ends`);
      return rows[0]?.label;
    };
  }

  it('starts the reads together on the database', async () => {
    const events: string[] = [];
    const answers = await readAll(undefined, [
      tracedRead(database.db, 'a', events),
      tracedRead(database.db, 'b', events),
    ]);
    expect(answers).toEqual(['a', 'b']);
    expect(events.slice(0, 2)).toEqual(['a starts', 'b starts']);
  });

  it('runs them one after another in a transaction, in order, with their answers', async () => {
    const events: string[] = [];
    const answers = await database.db.transaction((tx) =>
      readAll(tx, [tracedRead(tx, 'a', events), tracedRead(tx, 'b', events)]),
    );
    expect(answers).toEqual(['a', 'b']);
    expect(events).toEqual(['a starts', 'a ends', 'b starts', 'b ends']);
  });
});
