import type pg from 'pg';
import { type JobWithMetadata, PgBoss, type Queue } from 'pg-boss';
import type { JobHandler, JobOptions, JobPayload, JobQueue, QueueDepth } from './job-queue';
import {
  checkRegistration,
  type JobAttemptObserver,
  type JobLog,
  reportFailure,
  runAttempt,
} from './job-runner';

export interface PgBossQueueOptions {
  /** The application's pool: pg-boss keeps its tables in its own schema of the same database. */
  pool: pg.Pool;
  log: JobLog;
  /**
   * False on a server that only enqueues (several web servers, fewer job workers). At least one
   * process on the database must run jobs.
   */
  runJobs?: boolean;
  /** How often an idle worker asks the database for work queued by another process. */
  pollIntervalMs?: number;
  /** The schema of pg-boss's tables. */
  schema?: string;
  observeAttempt?: JobAttemptObserver;
}

export const DEFAULT_POLL_INTERVAL_MS = 1000;
const IDLE_CHECK_MS = 25;
/**
 * pg-boss fails an attempt still active this long after its own timeout: the process running it
 * has ended without saying so. The margin keeps it clear of attempts that are merely finishing.
 */
const EXPIRY_MARGIN_SECONDS = 60;

interface Registered {
  concurrency: number;
  /** The payload to store and its dedupe key, or a thrown error for a bad payload. */
  prepare(payload: unknown): { data: JobPayload; singletonKey?: string };
  process(job: JobWithMetadata<unknown>): Promise<void>;
}

/**
 * Jobs in PostgreSQL through pg-boss 12: every process on the database that runs jobs takes them
 * from the same tables (`FOR UPDATE SKIP LOCKED`), so a job enqueued by one server may run on
 * another, and a job survives the process that enqueued it.
 *
 * Attempts are counted by pg-boss. Each queue allows one attempt more than `retries`: it is only
 * used when the last real attempt was lost (its process ended), and then reports the failure
 * instead of running again, so `onFailure` is called even for a lost last attempt.
 */
export async function createPgBossQueue(options: PgBossQueueOptions): Promise<JobQueue> {
  const { pool, log } = options;
  const runJobs = options.runJobs ?? true;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const schema = options.schema ?? 'pgboss';
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) },
    schema,
    // No cron schedules here; maintenance (expiring attempts of ended processes) stays on.
    schedule: false,
    supervise: true,
  });
  boss.on('error', (error: unknown) => log.error({ err: error }, 'job queue error'));
  await boss.start();

  const jobs = new Map<string, Registered>();
  const loops: Array<Promise<void>> = [];
  const running = new Set<Promise<void>>();
  const wakers = new Map<string, Set<() => void>>();
  let closed = false;

  function wake(name: string) {
    const waiting = wakers.get(name);
    if (!waiting) return;
    wakers.delete(name);
    for (const resolve of waiting) resolve();
  }

  /** Waits for the next poll, or less when this process enqueues or the queue closes. */
  function pause(name: string): Promise<void> {
    return new Promise((resolve) => {
      const waiting = wakers.get(name) ?? new Set();
      wakers.set(name, waiting);
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, pollIntervalMs);
      waiting.add(done);
    });
  }

  async function workLoop(name: string, job: Registered) {
    while (!closed) {
      let fetched: JobWithMetadata<unknown> | undefined;
      try {
        [fetched] = await boss.fetch<unknown>(name, { batchSize: 1, includeMetadata: true });
      } catch (error) {
        log.error({ err: error, job: name }, 'fetching a job failed');
      }
      if (!fetched) {
        if (!closed) await pause(name);
        continue;
      }
      const run = job.process(fetched);
      running.add(run);
      await run;
      running.delete(run);
    }
  }

  async function settle(name: string, id: string, outcome: 'complete' | 'fail', output: object) {
    try {
      if (outcome === 'complete') await boss.complete(name, id, output);
      else await boss.fail(name, id, output);
    } catch (error) {
      log.error({ err: error, job: name }, 'recording a job outcome failed');
    }
  }

  /**
   * Counted from pg-boss's job table rather than its queue statistics, which are refreshed only
   * every so often: tests wait on these counts and operators alert on them.
   */
  async function depths(): Promise<Record<string, QueueDepth>> {
    const names = [...jobs.keys()];
    const result: Record<string, QueueDepth> = {};
    for (const name of names) result[name] = { waiting: 0, running: 0 };
    const { rows } = await pool.query<{ name: string; state: string; count: number }>(
      `SELECT name, state::text AS state, count(*)::int AS count FROM ${quoteIdentifier(schema)}.job
        WHERE name = ANY($1) AND state < 'completed' GROUP BY name, state`,
      [names],
    );
    for (const row of rows) {
      const depth = result[row.name];
      if (!depth) continue;
      if (row.state === 'active') depth.running += row.count;
      else depth.waiting += row.count;
    }
    return result;
  }

  return {
    kind: 'pg-boss',
    async register<P extends JobPayload>(
      name: string,
      handler: JobHandler<P>,
      jobOptions: JobOptions<P>,
    ) {
      checkRegistration(name, jobOptions, new Set(jobs.keys()), true);
      const attempts = jobOptions.retries + 1;
      const settings = {
        retryLimit: attempts,
        retryDelay: 0,
        expireInSeconds: Math.ceil(jobOptions.timeoutMs / 1000) + EXPIRY_MARGIN_SECONDS,
      } satisfies Omit<Queue, 'name'>;
      // "short": at most one job per singleton key waiting in state `created`.
      await boss.createQueue(name, {
        ...settings,
        policy: jobOptions.dedupeKey ? 'short' : 'standard',
      });
      // A queue made by an earlier version keeps its settings unless they are written again.
      await boss.updateQueue(name, settings);

      const registered: Registered = {
        concurrency: runJobs ? jobOptions.concurrency : 0,
        prepare(payload) {
          const data = jobOptions.payload.parse(payload);
          const singletonKey = jobOptions.dedupeKey?.(data);
          return singletonKey === undefined ? { data } : { data, singletonKey };
        },
        async process(job) {
          const parsed = jobOptions.payload.safeParse(job.data);
          if (!parsed.success) {
            log.error({ err: parsed.error, job: name }, 'job payload refused; job dropped');
            await settle(name, job.id, 'complete', { refused: 'payload' });
            return;
          }
          const attempt = job.retryCount + 1;
          if (attempt > attempts) {
            const lost = new Error('the last attempt ended with its process');
            await reportFailure(name, jobOptions, parsed.data, lost, log);
            await settle(name, job.id, 'complete', { failed: lost.message });
            return;
          }
          try {
            await runAttempt(
              name,
              handler,
              parsed.data,
              { attempt, finalAttempt: attempt === attempts },
              jobOptions.timeoutMs,
              options.observeAttempt,
            );
            await settle(name, job.id, 'complete', {});
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            log.warn({ err: error, job: name, attempt }, 'job attempt failed');
            if (attempt < attempts) {
              await settle(name, job.id, 'fail', { message });
              return;
            }
            await reportFailure(name, jobOptions, parsed.data, error, log);
            await settle(name, job.id, 'complete', { failed: message });
          }
        },
      };
      jobs.set(name, registered);
      for (let n = 0; n < registered.concurrency; n++) loops.push(workLoop(name, registered));
    },
    async enqueue(name, payload) {
      const job = jobs.get(name);
      if (!job) throw new Error(`job "${name}" is not registered`);
      const { data, singletonKey } = job.prepare(JSON.parse(JSON.stringify(payload)));
      if (closed) {
        log.warn({ job: name }, 'the job queue is closed; the job waits for the next start');
        return;
      }
      // With a singleton key already waiting, pg-boss stores nothing and answers null.
      await boss.send(name, data, singletonKey === undefined ? {} : { singletonKey });
      wake(name);
    },
    depths,
    async idle() {
      for (;;) {
        if (running.size === 0) {
          const counts = Object.values(await depths());
          const unfinished = counts.reduce((sum, depth) => sum + depth.waiting + depth.running, 0);
          if (unfinished === 0 && running.size === 0) return;
        }
        await new Promise((resolve) => setTimeout(resolve, IDLE_CHECK_MS));
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const name of jobs.keys()) wake(name);
      await Promise.allSettled(loops);
      // Nothing of ours is running now; the pool belongs to the application and stays open.
      await boss.stop({ graceful: false, close: false });
    },
  };
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
