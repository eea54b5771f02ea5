import type { AppDatabase } from '../db/database';
import type { JobLog } from '../jobs/job-runner';
import type { StorageDriver } from '../storage/storage';
import { createUploadCleanupStore } from './upload-cleanup-store';

export const UPLOAD_CLEANUP_INTERVAL_MS = 60 * 60_000;
/** Removed per run at most; a larger backlog goes in the next runs. */
const BATCH = 500;

/**
 * Removes keys handed out by /api/presigned-url that were never used to start a conversion, an
 * hour after they expired (no conversion can start from them then), and whatever was uploaded
 * under them. Objects go first, rows after: a run cut short leaves rows for the next one, never
 * objects no row points to. Several servers may run it at once.
 */
export async function removeExpiredUploads(
  db: AppDatabase,
  storage: StorageDriver,
): Promise<number> {
  const store = createUploadCleanupStore(db);
  const keys = await store.expiredUnusedKeys(BATCH);
  if (keys.length === 0) return 0;
  for (const key of keys) await storage.delete(key);
  await store.deleteUploads(keys);
  return keys.length;
}

export interface UploadCleanup {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/** Runs `removeExpiredUploads` now and then every `intervalMs`, until stopped. */
export function startUploadCleanup(options: {
  db: AppDatabase;
  storage: StorageDriver;
  log: JobLog;
  intervalMs?: number;
}): UploadCleanup {
  let current: Promise<void> = Promise.resolve();
  const run = () => {
    current = current
      .then(() => removeExpiredUploads(options.db, options.storage))
      .then(
        () => {},
        (error: unknown) => options.log.error({ err: error }, 'removing expired uploads failed'),
      );
  };
  run();
  const timer = setInterval(run, options.intervalMs ?? UPLOAD_CLEANUP_INTERVAL_MS);
  // A pending clean-up is no reason to keep the process alive.
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
