import type { JobHandler, JobOptions, JobPayload, JobQueue } from './job-queue';
import {
  checkRegistration,
  type JobAttemptObserver,
  type JobLog,
  parsePayload,
  runWithRetries,
} from './job-runner';

interface Waiting {
  run(): Promise<void>;
  dedupeKey?: string;
}

interface Registered {
  concurrency: number;
  /** Parses a payload now (so a bad one is refused to the caller) and returns its run. */
  prepare(payload: unknown): Waiting;
  queued: Waiting[];
  waitingKeys: Set<string>;
  running: number;
}

/**
 * Jobs in this process's memory, for the embedded database (one server by definition). What is
 * queued is lost when the process ends, so each job's owner re-queues its unfinished work from
 * its own tables at start.
 */
export function createInProcessQueue(options: {
  log: JobLog;
  observeAttempt?: JobAttemptObserver;
}): JobQueue {
  const { log, observeAttempt } = options;
  const jobs = new Map<string, Registered>();
  const running = new Set<Promise<void>>();
  let closed = false;
  let idleWaiters: Array<() => void> = [];

  const isIdle = () =>
    running.size === 0 && [...jobs.values()].every((job) => job.queued.length === 0);

  function settle() {
    if (!isIdle()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function pump(name: string, job: Registered) {
    while (!closed && job.running < job.concurrency && job.queued.length > 0) {
      const next = job.queued.shift() as Waiting;
      if (next.dedupeKey !== undefined) job.waitingKeys.delete(next.dedupeKey);
      job.running++;
      const run = next
        .run()
        .catch((error: unknown) => log.error({ err: error, job: name }, 'job crashed'))
        .finally(() => {
          job.running--;
          running.delete(run);
          pump(name, job);
          settle();
        });
      running.add(run);
    }
  }

  return {
    kind: 'in-process',
    async register<P extends JobPayload>(
      name: string,
      handler: JobHandler<P>,
      jobOptions: JobOptions<P>,
    ) {
      checkRegistration(name, jobOptions, new Set(jobs.keys()), false);
      jobs.set(name, {
        concurrency: jobOptions.concurrency,
        prepare(payload) {
          const parsed = parsePayload(jobOptions, payload);
          return {
            run: () =>
              runWithRetries(name, handler, jobOptions, parsed, log, () => !closed, observeAttempt),
            dedupeKey: jobOptions.dedupeKey?.(parsed),
          };
        },
        queued: [],
        waitingKeys: new Set(),
        running: 0,
      });
    },
    async enqueue(name, payload) {
      const job = jobs.get(name);
      if (!job) throw new Error(`job "${name}" is not registered`);
      const waiting = job.prepare(payload);
      if (closed) {
        log.warn({ job: name }, 'the job queue is closed; the job waits for the next start');
        return;
      }
      if (waiting.dedupeKey !== undefined) {
        if (job.waitingKeys.has(waiting.dedupeKey)) return;
        job.waitingKeys.add(waiting.dedupeKey);
      }
      job.queued.push(waiting);
      pump(name, job);
    },
    async depths() {
      return Object.fromEntries(
        [...jobs].map(([name, job]) => [
          name,
          { waiting: job.queued.length, running: job.running },
        ]),
      );
    },
    idle() {
      if (isIdle()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      closed = true;
      for (const job of jobs.values()) {
        job.queued.length = 0;
        job.waitingKeys.clear();
      }
      await Promise.allSettled([...running]);
      settle();
    },
  };
}
