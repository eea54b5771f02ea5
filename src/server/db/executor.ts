import type { AppDatabase } from './database';

/**
 * What a store method runs its statements on: the database, or a transaction a caller opened so
 * that several store calls commit or roll back together (Drizzle's transaction is a database).
 */
export type Executor = AppDatabase;
