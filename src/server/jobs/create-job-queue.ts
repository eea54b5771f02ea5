import { type DatabaseHandle, postgresPoolOf } from '../db/database';
import { lazy } from '../runtime/lazy';
import { createInProcessQueue } from './in-process-queue';
import type { JobQueue } from './job-queue';
import type { JobAttemptObserver, JobLog } from './job-runner';

/** pg-boss loads only on PostgreSQL; the embedded database runs jobs in process. */
const pgBoss = lazy(() => import('./pg-boss-queue'));

export interface JobQueueSettings {
  log: JobLog;
  /** False: this server enqueues but runs no jobs (PostgreSQL only; see RUN_JOBS). */
  runJobs?: boolean;
  pollIntervalMs?: number;
  /** Told how long each attempt took and how it ended, on either kind of queue. */
  observeAttempt?: JobAttemptObserver;
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
    return createInProcessQueue(settings);
  }
  const pool = postgresPoolOf(database);
  if (!pool) throw new Error('the PostgreSQL database has no pg pool');
  return (await pgBoss()).createPgBossQueue({ pool, ...settings });
}
