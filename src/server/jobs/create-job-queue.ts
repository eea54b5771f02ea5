import pg from 'pg';
import type { DatabaseHandle } from '../db/database';
import { createInProcessQueue } from './in-process-queue';
import type { JobQueue } from './job-queue';
import type { JobLog } from './job-runner';
import { createPgBossQueue } from './pg-boss-queue';

export interface JobQueueSettings {
  log: JobLog;
  /** False: this server enqueues but runs no jobs (PostgreSQL only; see RUN_JOBS). */
  runJobs?: boolean;
  pollIntervalMs?: number;
}

/** pg-boss on the application's PostgreSQL pool; in process on the embedded database. */
export async function createJobQueue(
  database: DatabaseHandle,
  settings: JobQueueSettings,
): Promise<JobQueue> {
  if (database.kind === 'pglite') {
    if (settings.runJobs === false) {
      throw new Error(
        'RUN_JOBS=false needs PostgreSQL: on the embedded database no one else would',
      );
    }
    return createInProcessQueue({ log: settings.log });
  }
  // drizzle keeps the pool it was given as `$client`.
  const pool: unknown = (database.db as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) throw new Error('the PostgreSQL database has no pg pool');
  return createPgBossQueue({ pool, ...settings });
}
