import type { z } from 'zod';

/** A JSON value: job payloads are stored as JSON (in pg-boss's tables or copied in memory). */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A job's payload: a JSON object, small (ids and keys, never file contents). */
export type JobPayload = { [key: string]: JsonValue };

export interface JobContext {
  /** 1 for the first attempt, then 2, 3... */
  attempt: number;
  /** True when a failure of this attempt is not retried (`onFailure` follows it). */
  finalAttempt: boolean;
  /** Aborted when the attempt runs past `timeoutMs`: its outcome no longer counts. */
  signal: AbortSignal;
}

export type JobHandler<P extends JobPayload> = (payload: P, context: JobContext) => Promise<void>;

export interface JobOptions<P extends JobPayload> {
  /**
   * Parses every payload before the handler sees it: on PostgreSQL payloads come back from the
   * database, possibly written by another version of the server.
   */
  payload: z.ZodType<P>;
  /** Per attempt. A slower attempt counts as failed; its promise is abandoned, not awaited. */
  timeoutMs: number;
  /** Further attempts after a failed one (0 = run once). */
  retries: number;
  /**
   * Attempts of this job running at once in this process. 0 is allowed on pg-boss only: this
   * process enqueues and another runs the jobs.
   */
  concurrency: number;
  /**
   * Runs once when the last attempt failed, so the job can record its failure (nothing should
   * wait forever). Errors it throws are logged, not retried.
   */
  onFailure?: (payload: P, error: unknown) => Promise<void>;
  /**
   * Jobs with the same key that are still waiting to start run once: enqueuing another is a
   * no-op. A running job does not count, so work asked for while it runs is done once more.
   */
  dedupeKey?: (payload: P) => string;
}

/**
 * Background jobs, one queue per job name. Two implementations behind this interface: in-process
 * (the embedded PGlite default: one server) and pg-boss (PostgreSQL: every server and worker on
 * the same database shares the queues, a job enqueued by one may run on another).
 *
 * Handlers must be idempotent: an attempt may run again after a timeout, a crash or a restart,
 * and a job enqueued twice may run twice, even at once on two servers. Handlers should keep
 * their own state in the application's tables (claim a row, finish it conditionally) rather
 * than rely on the queue delivering exactly once.
 *
 * The app creates one queue (`createJobQueue`) and passes it to the plugins that need it. A
 * plugin registers its jobs while it is being registered (before the server is ready) and
 * enqueues afterwards. Enqueuing a name that was not registered is an error.
 */
/** Jobs of one name not yet finished: waiting to start (or for a retry), and running. */
export interface QueueDepth {
  waiting: number;
  running: number;
}

export interface JobQueue {
  readonly kind: 'in-process' | 'pg-boss';
  /**
   * Declares a job and starts working it in this process. Names: letters, digits, `-`, `_`, `.`
   * (a name is a pg-boss queue name). Registering a name twice is an error.
   */
  register<P extends JobPayload>(
    name: string,
    handler: JobHandler<P>,
    options: JobOptions<P>,
  ): Promise<void>;
  /** Queues one run; resolves once it is stored (pg-boss) or queued (in-process). */
  enqueue(name: string, payload: JobPayload): Promise<void>;
  /**
   * Resolves when no job of the registered names is queued, waiting for a retry or running
   * (on pg-boss: anywhere on the database). For tests.
   */
  idle(): Promise<void>;
  /** Per registered name, what is waiting and running (on pg-boss: anywhere on the database). */
  depths(): Promise<Record<string, QueueDepth>>;
  /** Takes no new jobs, waits for the running attempts, then releases its resources. */
  close(): Promise<void>;
}
