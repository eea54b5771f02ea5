import { PgTransaction } from 'drizzle-orm/pg-core';
import type { AppDatabase } from './database';

/**
 * What a store method runs its statements on: the database, or a transaction a caller opened so
 * that several store calls commit or roll back together (Drizzle's transaction is a database).
 */
export type Executor = AppDatabase;

/**
 * Runs reads at once on the database (no transaction given), where the pool gives each a
 * connection of its own, and one after another in a transaction: its one connection takes one
 * statement at a time, and node-postgres warns of (and from version 9 refuses) a statement sent
 * while another runs.
 */
export async function readAll<const T extends readonly (() => PromiseLike<unknown>)[]>(
  tx: Executor | undefined,
  reads: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  type Results = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };
  if (!(tx instanceof PgTransaction))
    return (await Promise.all(reads.map((read) => read()))) as Results;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as Results;
}
