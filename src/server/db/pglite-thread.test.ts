import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as nextTimer } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../config/project-root';
import {
  DATABASE_THREAD_YOUNG_GENERATION_MB,
  type PgliteThread,
  type PgliteThreadTransaction,
  startPgliteThread,
} from './pglite-thread';

const migrationsFolder = path.join(projectRoot, 'drizzle');

describe('the embedded database on its own thread', () => {
  let thread: PgliteThread;

  beforeAll(async () => {
    thread = await startPgliteThread({ dataDir: undefined, migrationsFolder });
    await thread.exec('create table notes (id int primary key, body text, at timestamptz)');
  });
  afterAll(async () => {
    await thread.close();
  });

  it("caps the thread's young generation, and keeps it within the cap over many results", async () => {
    for (let round = 0; round < 40; round++) {
      await thread.query("select g, repeat('x', 100) as body from generate_series(1, 2000) g");
    }
    const memory = await thread.memory();
    expect(memory.youngGenerationLimitMb).toBe(DATABASE_THREAD_YOUNG_GENERATION_MB);
    expect(memory.youngGenerationBytes).toBeLessThanOrEqual(
      DATABASE_THREAD_YOUNG_GENERATION_MB * 1024 * 1024,
    );
    expect(memory.heapUsedBytes).toBeLessThanOrEqual(memory.heapTotalBytes);
    expect(memory.wasmBytes).toBeGreaterThan(0);
  });

  it('answers a result larger than the young generation: its cap is no limit on results', async () => {
    const rows = await thread.query<{ g: number; body: string }>(
      "select g, repeat('x', 1500) as body from generate_series(1, 40000) g",
    );
    expect(rows.rows).toHaveLength(40_000);
    expect(rows.rows.at(-1)?.g).toBe(40_000);
  });

  it('answers queries with parameters, in either row mode, keeping asked-for types as text', async () => {
    await thread.query('insert into notes values ($1, $2, $3)', [
      1,
      'first',
      '2026-11-24T10:00:00Z',
    ]);
    const objects = await thread.query<{ body: string; at: Date }>(
      'select body, at from notes where id = $1',
      [1],
    );
    expect(objects.rows).toEqual([{ body: 'first', at: new Date('2026-11-24T10:00:00Z') }]);
    const arrays = await thread.query('select body, at from notes where id = $1', [1], {
      rowMode: 'array',
      parsers: { 1184: (value: string) => value },
    });
    expect(arrays.rows).toEqual([['first', '2026-11-24 10:00:00+00']]);
  });

  it("passes PostgreSQL's error code and message back", async () => {
    const duplicate = thread.query('insert into notes values (1, $1, null)', ['again']);
    await expect(duplicate).rejects.toMatchObject({
      code: '23505',
      message: expect.stringContaining('duplicate key'),
    });
  });

  it('commits a transaction, and rolls back one that fails', async () => {
    await thread.transaction(async (tx) => {
      await tx.query('insert into notes values (2, $1, null)', ['kept']);
    });
    await expect(
      thread.transaction(async (tx) => {
        await tx.query('insert into notes values (3, $1, null)', ['dropped']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const ids = await thread.query<{ id: number }>('select id from notes order by id');
    expect(ids.rows.map((row) => row.id)).toEqual([1, 2]);
  });

  it('refuses a transaction whose failed statement was caught: PostgreSQL rolled it back', async () => {
    const swallowed = thread.transaction(async (tx) => {
      await tx.query('insert into notes values (5, $1, null)', ['lost']);
      await tx.query('insert into notes values (5, $1, null)', ['again']).catch(() => undefined);
      return 'stored';
    });
    await expect(swallowed).rejects.toThrow('The transaction failed and was rolled back.');
    const rows = await thread.query('select id from notes where id = 5');
    expect(rows.rows).toEqual([]);
  });

  it('refuses a transaction handle used after its transaction ended', async () => {
    let kept: PgliteThreadTransaction | undefined;
    await thread.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept?.query('select 1')).rejects.toThrow('This transaction has ended.');
  });

  it('holds a statement asked for during a transaction until the transaction ends', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = thread.transaction(async (tx) => {
      await tx.query('insert into notes values (4, $1, null)', ['inside']);
      await held;
      await tx.query('update notes set body = $1 where id = 4', ['inside, finished']);
    });
    const outside = thread.query<{ body: string }>('select body from notes where id = 4');
    release();
    await transaction;
    expect((await outside).rows).toEqual([{ body: 'inside, finished' }]);
  });

  it("keeps PostgreSQL's shared buffers small, PGlite's other settings as they were", async () => {
    const shown = async (setting: string) =>
      Object.values((await thread.query<Record<string, string>>(`show ${setting}`)).rows[0] ?? {});
    expect(await shown('shared_buffers')).toEqual(['16MB']);
    expect(await shown('search_path')).toEqual(['public']);
    expect(await shown('max_parallel_workers')).toEqual(['0']);
  });

  it('leaves the calling thread free while a statement runs', async () => {
    let finished = false;
    const long = thread.query('select count(*) from generate_series(1, 3000000)').then(() => {
      finished = true;
    });
    await nextTimer(1);
    expect(finished).toBe(false);
    await long;
  });
});

describe('starting and stopping the embedded database thread', () => {
  it('refuses statements once closed', async () => {
    const thread = await startPgliteThread({ dataDir: undefined, migrationsFolder });
    await thread.close();
    await expect(thread.query('select 1')).rejects.toThrow('The embedded database is closed.');
  });

  it('says why it could not open', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'pglite-thread-'));
    const notADirectory = path.join(directory, 'file');
    await writeFile(notADirectory, 'not a database');
    try {
      await expect(startPgliteThread({ dataDir: notADirectory, migrationsFolder })).rejects.toThrow(
        'The embedded database could not open',
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('statements the embedded database keeps prepared', () => {
  it('give the same answers the hundredth time, with values of every kind', async () => {
    const thread = await startPgliteThread({ dataDir: undefined, migrationsFolder });
    try {
      await thread.exec(
        'create table kinds (id int primary key, flag boolean, at timestamptz, doc jsonb, tags text[])',
      );
      const insert = 'insert into kinds values ($1, $2, $3, $4, $5) returning *';
      for (let id = 1; id <= 100; id++) {
        const { rows } = await thread.query(insert, [
          id,
          id % 2 === 0,
          new Date(Date.UTC(2026, 10, 24, 0, 0, id)),
          JSON.stringify({ id }),
          ['a', `b${id}`],
        ]);
        expect(rows).toEqual([
          {
            id,
            flag: id % 2 === 0,
            at: new Date(Date.UTC(2026, 10, 24, 0, 0, id)),
            doc: { id },
            tags: ['a', `b${id}`],
          },
        ]);
      }
      const nulls = await thread.query(insert, [101, null, null, null, null]);
      expect(nulls.rows).toEqual([{ id: 101, flag: null, at: null, doc: null, tags: null }]);
      await expect(thread.query(insert, [1, true, null, null, null])).rejects.toMatchObject({
        code: '23505',
      });
      await expect(thread.query('select * from no_such_table where id = $1', [1])).rejects.toThrow(
        'no_such_table',
      );
      const count = await thread.query<{ count: number }>(
        'select count(*)::int as count from kinds',
      );
      expect(count.rows).toEqual([{ count: 101 }]);
    } finally {
      await thread.close();
    }
  });
});
