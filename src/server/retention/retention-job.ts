import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { AppDatabase } from '../db/database';
import type { JobQueue } from '../jobs/job-queue';
import type { StorageDriver } from '../storage/storage';
import { applyRetention, type RetentionLimits, type RetentionReport } from './retention';

export const RETENTION_JOB = 'data-retention';
const DAY_MS = 86_400_000;
/** The scheduled run starts every day at this hour, UTC, on every server at once (see below). */
export const RETENTION_HOUR_UTC = 3;
/** A large backlog may take long; the run is not retried (the next day's run continues). */
const RETENTION_TIMEOUT_MS = 60 * 60_000;

export interface RetentionSettings {
  /** RETENTION_UNSUBMITTED_DAYS: unsubmitted applications unchanged this many days go. */
  unsubmittedDays?: number;
  /** RETENTION_CLOSED_CYCLE_DAYS: applications go this many days after their entry term started. */
  closedCycleDays?: number;
}

/** The limits of a run at `now`: each rule only when its setting is there. */
export function scheduledLimits(settings: RetentionSettings, now: Date): RetentionLimits {
  const daysAgo = (days: number | undefined) =>
    days === undefined ? null : new Date(now.getTime() - days * DAY_MS);
  return {
    unsubmittedBefore: daysAgo(settings.unsubmittedDays),
    cycleStartedBefore: daysAgo(settings.closedCycleDays),
  };
}

/** Milliseconds from `now` to the next RETENTION_HOUR_UTC. */
export function msUntilNextRun(now: Date): number {
  const next = Date.UTC(
    now.getUTCFullYear(),
    now.getUTCMonth(),
    now.getUTCDate(),
    RETENTION_HOUR_UTC,
  );
  return next > now.getTime() ? next - now.getTime() : next + DAY_MS - now.getTime();
}

export interface RetentionSchedule {
  /** Queues the run of today (UTC); a run of today still waiting makes this a no-op. */
  enqueueToday(): Promise<void>;
  /** Starts the daily timer (when the server is ready). */
  start(): void;
  /** Stops the timer. Queued runs stay with the queue. */
  stop(): void;
}

const payloadSchema = z.strictObject({ day: z.iso.date() });

/**
 * The scheduled deletion: null (nothing registered, nothing ever deleted) unless a setting is
 * there. Every server registers the job and queues one run a day, at RETENTION_HOUR_UTC, keyed by
 * the day: on PostgreSQL pg-boss stores one run while one of that day is waiting, so one server
 * runs it (should a second be queued after the first started, it finds nothing left to delete).
 * Servers with RUN_JOBS=false queue the run for the job workers.
 */
export async function scheduleRetention(
  queue: JobQueue,
  options: {
    db: AppDatabase;
    storage: StorageDriver;
    log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
    settings: RetentionSettings;
    now?: () => Date;
  },
): Promise<RetentionSchedule | null> {
  const { settings, log } = options;
  if (settings.unsubmittedDays === undefined && settings.closedCycleDays === undefined) return null;
  const now = options.now ?? (() => new Date());

  await queue.register<z.infer<typeof payloadSchema>>(
    RETENTION_JOB,
    async () => {
      const report: RetentionReport = await applyRetention(options.db, options.storage, {
        limits: scheduledLimits(settings, now()),
      });
      const { filesNotDeleted, ...counts } = report;
      log.info({ retention: counts }, 'data retention run finished');
      if (filesNotDeleted.length > 0) {
        log.error(
          { keys: filesNotDeleted },
          'data retention: stored files could not be removed; remove them by hand',
        );
      }
    },
    {
      payload: payloadSchema,
      timeoutMs: RETENTION_TIMEOUT_MS,
      retries: 0,
      concurrency: 1,
      dedupeKey: (payload) => payload.day,
    },
  );

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let lastDay = '';
  const today = () => now().toISOString().slice(0, 10);
  const enqueueToday = () => queue.enqueue(RETENTION_JOB, { day: today() });
  const arm = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      // A timer that fires a moment early must not queue the same day twice.
      if (today() !== lastDay) {
        lastDay = today();
        enqueueToday().catch((error: unknown) =>
          log.error({ err: error }, 'queueing the data retention run failed'),
        );
      }
      arm();
    }, msUntilNextRun(now()));
    // A scheduled run is no reason to keep the process alive.
    timer.unref();
  };
  return {
    enqueueToday,
    start: arm,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
