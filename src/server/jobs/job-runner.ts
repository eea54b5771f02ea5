import type { FastifyBaseLogger } from 'fastify';
import type { JobContext, JobHandler, JobOptions, JobPayload } from './job-queue';

export type JobLog = Pick<FastifyBaseLogger, 'warn' | 'error'>;

export class JobTimeoutError extends Error {
  override name = 'JobTimeoutError';
}

/** How one attempt ended: a timed-out attempt is told apart from one that threw. */
export type JobAttemptOutcome = 'succeeded' | 'failed' | 'timed_out';

/**
 * Told about every attempt either queue runs, so operators see durations and failures per job
 * without the queues knowing about metrics.
 */
export type JobAttemptObserver = (
  job: string,
  outcome: JobAttemptOutcome,
  durationSeconds: number,
) => void;

const JOB_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;

/** Refuses a registration either queue could not honour, with the reason. */
export function checkRegistration<P extends JobPayload>(
  name: string,
  options: JobOptions<P>,
  registered: ReadonlySet<string>,
  allowNoWorkers: boolean,
): void {
  if (!JOB_NAME.test(name)) throw new Error(`job name "${name}" must be letters, digits, . _ -`);
  if (registered.has(name)) throw new Error(`job "${name}" is registered already`);
  if (!Number.isInteger(options.retries) || options.retries < 0) {
    throw new Error(`job "${name}": retries must be a whole number, 0 or more`);
  }
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new Error(`job "${name}": timeoutMs must be positive`);
  }
  const least = allowNoWorkers ? 0 : 1;
  if (!Number.isInteger(options.concurrency) || options.concurrency < least) {
    throw new Error(`job "${name}": concurrency must be a whole number, ${least} or more`);
  }
}

/**
 * One attempt of job `name`, bounded by `timeoutMs`. A slower attempt is abandoned: its signal is
 * aborted and whatever it settles to later is ignored.
 */
export async function runAttempt<P extends JobPayload>(
  name: string,
  handler: JobHandler<P>,
  payload: P,
  attempt: Omit<JobContext, 'signal'>,
  timeoutMs: number,
  observe?: JobAttemptObserver,
): Promise<void> {
  const started = performance.now();
  const report = (outcome: JobAttemptOutcome) =>
    observe?.(name, outcome, (performance.now() - started) / 1000);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new JobTimeoutError(`attempt took over ${timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  const work = handler(payload, { ...attempt, signal: controller.signal });
  // An abandoned attempt that fails later must not become an unhandled rejection.
  work.catch(() => {});
  try {
    await Promise.race([work, timeout]);
    report('succeeded');
  } catch (error) {
    report(error instanceof JobTimeoutError ? 'timed_out' : 'failed');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Calls `onFailure`, logging rather than throwing what it throws: there is no one to tell. */
export async function reportFailure<P extends JobPayload>(
  name: string,
  options: JobOptions<P>,
  payload: P,
  error: unknown,
  log: JobLog,
): Promise<void> {
  log.error({ err: error, job: name }, 'job failed after its last attempt');
  if (!options.onFailure) return;
  try {
    await options.onFailure(payload, error);
  } catch (failure) {
    log.error({ err: failure, job: name }, 'recording a failed job failed');
  }
}

/**
 * Every attempt of one job in this process, one after the other, then `onFailure` if all failed.
 * `keepGoing` is asked before each retry: a closing queue stops there and leaves the job to the
 * application's own recovery.
 */
export async function runWithRetries<P extends JobPayload>(
  name: string,
  handler: JobHandler<P>,
  options: JobOptions<P>,
  payload: P,
  log: JobLog,
  keepGoing: () => boolean = () => true,
  observe?: JobAttemptObserver,
): Promise<void> {
  const attempts = options.retries + 1;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1 && !keepGoing()) return;
    try {
      await runAttempt(
        name,
        handler,
        payload,
        { attempt, finalAttempt: attempt === attempts },
        options.timeoutMs,
        observe,
      );
      return;
    } catch (error) {
      lastError = error;
      log.warn({ err: error, job: name, attempt }, 'job attempt failed');
    }
  }
  await reportFailure(name, options, payload, lastError, log);
}

/** A deep copy through JSON, parsed: what a handler gets is what a database would give back. */
export function parsePayload<P extends JobPayload>(options: JobOptions<P>, payload: unknown): P {
  return options.payload.parse(JSON.parse(JSON.stringify(payload)));
}
