import type { FastifyBaseLogger } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type DatabaseHandle, pgliteThreadOf, postgresPoolOf } from '../db/database';
import type { JobQueue } from '../jobs/job-queue';
import type { JobAttemptObserver } from '../jobs/job-runner';

/** Every metric of this server starts with it, the default Node.js ones included. */
export const METRIC_PREFIX = 'portal_';

/** Route label of requests no route matched: their raw paths would be unbounded labels. */
export const UNMATCHED_ROUTE = 'unmatched';

export type ConversionResult = 'converted' | 'refused' | 'failed';

/**
 * One app's metrics on a registry of its own: nothing is global, so two apps in one process (the
 * tests) neither share nor clash. The metrics that read state when scraped (queue depths, the
 * database pool, the embedded database's thread) are added by `observeJobQueue`,
 * `observeDatabasePool` and `observeEmbeddedDatabase`.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  return {
    registry,
    httpRequests: new Counter({
      name: `${METRIC_PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'] as const,
      registers: [registry],
    }),
    httpRequestDuration: new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Time from receiving a request to sending its response',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobAttemptDuration: new Histogram({
      name: `${METRIC_PREFIX}job_attempt_duration_seconds`,
      help: 'Background job attempts run by this process, by job name and outcome',
      labelNames: ['job', 'outcome'] as const,
      // A conversion may take up to its 30-second limit.
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60],
      registers: [registry],
    }),
    documentConversions: new Counter({
      name: `${METRIC_PREFIX}document_conversions_total`,
      help: 'Uploaded documents finished: converted to PDF, refused (not an allowed file) or failed after every attempt',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    mailSent: new Counter({
      name: `${METRIC_PREFIX}mail_sent_total`,
      help: 'Messages handed to the mail server (or kept in the outbox without one)',
      registers: [registry],
    }),
    mailFailed: new Counter({
      name: `${METRIC_PREFIX}mail_failed_total`,
      help: 'Messages that could not be delivered',
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Records each job attempt the queue runs in this process. */
export function jobAttemptObserver(metrics: Metrics): JobAttemptObserver {
  return (job, outcome, durationSeconds) =>
    metrics.jobAttemptDuration.observe({ job, outcome }, durationSeconds);
}

/**
 * Jobs waiting and running per job name, read from the queue at each scrape (on PostgreSQL: on
 * the whole database, so every server reports the same numbers). A failed read leaves the gauge
 * empty rather than failing the scrape, which would hide every other metric.
 */
export function observeJobQueue(metrics: Metrics, queue: JobQueue, log: FastifyBaseLogger): void {
  new Gauge({
    name: `${METRIC_PREFIX}job_queue_jobs`,
    help: 'Background jobs not yet finished, by job name and state (waiting or running)',
    labelNames: ['job', 'state'] as const,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      try {
        for (const [job, depth] of Object.entries(await queue.depths())) {
          this.set({ job, state: 'waiting' }, depth.waiting);
          this.set({ job, state: 'running' }, depth.running);
        }
      } catch (error) {
        log.warn({ err: error }, 'reading the job queue depths for metrics failed');
      }
    },
  });
}

/**
 * The pg pool's connections, read at each scrape. The embedded database has no pool (it serves
 * one connection at a time), so there these gauges do not exist.
 */
export function observeDatabasePool(metrics: Metrics, database: DatabaseHandle): void {
  const pool = postgresPoolOf(database);
  if (!pool) return;
  const poolGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name: `${METRIC_PREFIX}${name}`,
      help,
      registers: [metrics.registry],
      collect() {
        this.set(read());
      },
    });
  poolGauge(
    'db_pool_connections',
    'Open connections in the PostgreSQL pool',
    () => pool.totalCount,
  );
  poolGauge(
    'db_pool_idle_connections',
    'Open connections in the pool that no query is using',
    () => pool.idleCount,
  );
  poolGauge(
    'db_pool_waiting_clients',
    'Queries waiting for a connection because the pool is at its size',
    () => pool.waitingCount,
  );
  poolGauge(
    'db_pool_max_connections',
    'Size of the pool (DATABASE_POOL_SIZE)',
    () => pool.options.max,
  );
}

/**
 * The embedded database's thread's memory, read at each scrape: its V8 heap (the young
 * generation apart: what grows under load when it grows) and PostgreSQL's WebAssembly memory.
 * The process's resident set holds them; these say which part moved. PostgreSQL has no such
 * thread, so there these gauges do not exist; a failed read leaves the gauge empty.
 */
export function observeEmbeddedDatabase(
  metrics: Metrics,
  database: DatabaseHandle,
  log: FastifyBaseLogger,
): void {
  const thread = pgliteThreadOf(database);
  if (!thread) return;
  new Gauge({
    name: `${METRIC_PREFIX}embedded_db_memory_bytes`,
    help: "The embedded database thread's memory: V8's young generation, its whole heap and the part in use, and PostgreSQL's WebAssembly memory",
    labelNames: ['part'] as const,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      try {
        const memory = await thread.memory();
        this.set({ part: 'young_generation' }, memory.youngGenerationBytes);
        this.set({ part: 'heap' }, memory.heapTotalBytes);
        this.set({ part: 'heap_used' }, memory.heapUsedBytes);
        this.set({ part: 'wasm' }, memory.wasmBytes);
      } catch (error) {
        log.warn({ err: error }, "reading the embedded database's memory for metrics failed");
      }
    },
  });
}
