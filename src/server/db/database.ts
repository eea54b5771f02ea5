import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { projectRoot } from '../config/project-root';
import { type DataDirLock, lockDataDir } from './data-dir-lock';
import { type PgliteThread, startPgliteThread } from './pglite-thread';
import * as schema from './schema';

export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: AppDatabase;
  /**
   * For the few statements that must not queue behind the many (an applicant's submit on
   * deadline night behind everyone's saves): a small pool of its own on PostgreSQL, the one
   * connection on the embedded database.
   */
  reserved: AppDatabase;
  /**
   * Statements worth having on their way through `db` at once: the pool's size on PostgreSQL; on
   * the embedded database, which runs one at a time, a few, so its thread finds the next queued
   * as one ends.
   */
  concurrentStatements: number;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite-memory' };

const migrationsFolder = path.join(projectRoot, 'drizzle');
// Any constant shared by every server of one deployment; it serialises concurrent migrations.
const MIGRATION_LOCK_ID = 7_311_001;
/** Connections of the reserved pool, on top of DATABASE_POOL_SIZE. */
export const RESERVED_POOL_SIZE = 2;
/** Measured with the answer-save benchmark: one at a time left the thread idle between saves. */
const PGLITE_STATEMENTS_QUEUED = 4;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'postgres') return openPostgres(options.url, options.poolSize ?? 10);
  return openPglite(options.kind === 'pglite' ? options.dataDir : null);
}

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migrateNodePostgres(drizzleNodePostgres(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    client.release();
  }
  const db = drizzleNodePostgres(pool, { schema });
  const reservedPool = new pg.Pool({
    connectionString: url,
    max: RESERVED_POOL_SIZE,
    connectionTimeoutMillis: 5000,
  });
  reservedPool.on('error', () => {});
  let closed = false;
  return {
    kind: 'postgres',
    db,
    reserved: drizzleNodePostgres(reservedPool, { schema }),
    concurrentStatements: poolSize,
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([pool.end(), reservedPool.end()]);
    },
  };
}

async function openPglite(dataDir: string | null): Promise<DatabaseHandle> {
  let lock: DataDirLock | null = null;
  if (dataDir) lock = lockDataDir(dataDir);
  let thread: PgliteThread;
  try {
    thread = await startPgliteThread({
      dataDir: dataDir ? path.join(dataDir, 'pglite') : undefined,
      migrationsFolder,
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  // Drizzle's PGlite driver calls query, exec and transaction only, which the thread provides.
  const db = drizzlePglite(thread as unknown as PGlite, { schema });
  let closed = false;
  return {
    kind: 'pglite',
    db,
    reserved: db,
    concurrentStatements: PGLITE_STATEMENTS_QUEUED,
    async ping() {
      if (closed) throw new Error('The embedded database is closed.');
      await db.execute(sql`select 1`);
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await thread.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/** The pg pool behind a PostgreSQL handle (drizzle keeps it as `$client`); null on PGlite. */
export function postgresPoolOf(database: DatabaseHandle): pg.Pool | null {
  if (database.kind !== 'postgres') return null;
  const pool: unknown = (database.db as { $client?: unknown }).$client;
  return pool instanceof pg.Pool ? pool : null;
}

/** The embedded database's thread behind a PGlite handle (drizzle keeps it as `$client`); null on PostgreSQL. */
export function pgliteThreadOf(database: DatabaseHandle): PgliteThread | null {
  if (database.kind !== 'pglite') return null;
  const thread: unknown = (database.db as { $client?: unknown }).$client;
  return thread && typeof (thread as PgliteThread).memory === 'function'
    ? (thread as PgliteThread)
    : null;
}

/** Rows of a raw `db.execute`, whose result type differs between node-postgres and PGlite. */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
