import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '../db/database';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { createJobQueue } from './create-job-queue';
import type { JobContext, JobOptions, JobQueue } from './job-queue';
import { type JobAttemptOutcome, JobTimeoutError } from './job-runner';

const silentLog = { warn: () => {}, error: () => {} };
const payload = z.strictObject({ id: z.string(), n: z.number().int() });
type Payload = z.infer<typeof payload>;
const options = (overrides: Partial<JobOptions<Payload>> = {}): JobOptions<Payload> => ({
  payload,
  timeoutMs: 5_000,
  retries: 2,
  concurrency: 2,
  ...overrides,
});

/** Resolves once `check` holds, asking again on every turn of the event loop. */
async function until(check: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 20_000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(databaseKinds)('job queue on %s', (kind) => {
  let database: DatabaseHandle;
  let queue: JobQueue;
  let counter = 0;
  const name = () => `test-job-${++counter}`;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    queue = await createJobQueue(database, { log: silentLog, pollIntervalMs: 50 });
  });
  afterAll(async () => {
    await queue.close();
    await database.close();
  });

  it('is pg-boss on PostgreSQL and in process on the embedded database', () => {
    expect(queue.kind).toBe(kind === 'postgres' ? 'pg-boss' : 'in-process');
  });

  it('runs each job once with its parsed payload, and idle waits for all of them', async () => {
    const job = name();
    const seen: Payload[] = [];
    await queue.register(
      job,
      async (data, context) => {
        expect(context).toMatchObject({ attempt: 1, finalAttempt: false });
        seen.push(data);
      },
      options(),
    );
    for (let n = 0; n < 5; n++) await queue.enqueue(job, { id: 'a', n });
    await queue.idle();
    expect(seen.map((data) => data.n).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(seen[0]).toEqual({ id: 'a', n: expect.any(Number) });
  });

  it('counts what waits and what runs, per name', async () => {
    const job = name();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    await queue.register(
      job,
      async () => {
        started++;
        await released;
      },
      options({ concurrency: 1 }),
    );
    await queue.enqueue(job, { id: 'a', n: 1 });
    await queue.enqueue(job, { id: 'a', n: 2 });
    await until(() => started === 1, 'the first job to start');
    await until(async () => {
      const depth = (await queue.depths())[job];
      return depth?.running === 1 && depth.waiting === 1;
    }, 'one running and one waiting');
    release();
    await queue.idle();
    expect((await queue.depths())[job]).toEqual({ waiting: 0, running: 0 });
  });

  it('refuses bad names, second registrations, bad options and payloads of the wrong shape', async () => {
    const job = name();
    await queue.register(job, async () => {}, options());
    await expect(queue.register(job, async () => {}, options())).rejects.toThrow(/already/);
    await expect(queue.register('has space', async () => {}, options())).rejects.toThrow(/name/);
    await expect(queue.register('../up', async () => {}, options())).rejects.toThrow(/name/);
    await expect(queue.register(name(), async () => {}, options({ retries: -1 }))).rejects.toThrow(
      /retries/,
    );
    await expect(queue.register(name(), async () => {}, options({ timeoutMs: 0 }))).rejects.toThrow(
      /timeoutMs/,
    );
    await expect(queue.enqueue('never-registered', { id: 'a', n: 1 })).rejects.toThrow(
      /not registered/,
    );
    await expect(queue.enqueue(job, { id: 'a', n: 'one' })).rejects.toThrow();
    await expect(queue.enqueue(job, { id: 'a' })).rejects.toThrow();
    await expect(queue.enqueue(job, { id: 'a', n: 1, extra: true })).rejects.toThrow();
  });

  it('retries a failing attempt and tells the handler which attempt is the last', async () => {
    const job = name();
    const contexts: Array<Omit<JobContext, 'signal'>> = [];
    let failures = 0;
    await queue.register(
      job,
      async (_, { attempt, finalAttempt }) => {
        contexts.push({ attempt, finalAttempt });
        if (attempt < 3) throw new Error('transient');
      },
      options({
        onFailure: async () => {
          failures++;
        },
      }),
    );
    await queue.enqueue(job, { id: 'r', n: 1 });
    await queue.idle();
    expect(contexts).toEqual([
      { attempt: 1, finalAttempt: false },
      { attempt: 2, finalAttempt: false },
      { attempt: 3, finalAttempt: true },
    ]);
    expect(failures).toBe(0);
  });

  it('gives up after the retries, calls onFailure once, and aborts attempts that time out', async () => {
    const job = name();
    let attempts = 0;
    const signals: AbortSignal[] = [];
    const failures: Array<{ data: Payload; error: unknown }> = [];
    await queue.register(
      job,
      (_, { signal }) => {
        attempts++;
        signals.push(signal);
        return new Promise<void>(() => {});
      },
      options({
        timeoutMs: 30,
        retries: 1,
        onFailure: async (data, error) => {
          failures.push({ data, error });
        },
      }),
    );
    await queue.enqueue(job, { id: 'slow', n: 7 });
    await queue.idle();
    expect(attempts).toBe(2);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.data).toEqual({ id: 'slow', n: 7 });
    expect(failures[0]?.error).toBeInstanceOf(JobTimeoutError);
  });

  it('runs jobs with the same dedupe key waiting to start once, and again after a run', async () => {
    const job = name();
    const ran: string[] = [];
    let started = 0;
    let release = () => {};
    await queue.register(
      job,
      async (data) => {
        started++;
        ran.push(`${data.id}:${data.n}`);
        if (data.id === 'block' && data.n === 0) {
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        }
      },
      options({ concurrency: 1, dedupeKey: (data) => data.id }),
    );
    await queue.enqueue(job, { id: 'block', n: 0 });
    await until(() => started === 1, 'the blocking job to start');
    await queue.enqueue(job, { id: 'a', n: 1 });
    await queue.enqueue(job, { id: 'a', n: 2 });
    await queue.enqueue(job, { id: 'block', n: 3 });
    release();
    await queue.idle();
    expect(ran).toEqual(['block:0', 'a:1', 'block:3']);
  });

  it('keeps to the concurrency it was given', async () => {
    const job = name();
    let now = 0;
    let most = 0;
    const release: Array<() => void> = [];
    await queue.register(
      job,
      async () => {
        now++;
        most = Math.max(most, now);
        await new Promise<void>((resolve) => release.push(resolve));
        now--;
      },
      options({ concurrency: 2 }),
    );
    for (let n = 0; n < 4; n++) await queue.enqueue(job, { id: 'c', n });
    // Two run at once, however long the queue takes to start the second; never a third.
    for (let done = 0; done < 4; done++) {
      const running = Math.min(2, 4 - done);
      await until(() => release.length >= running, `${running} running jobs`);
      expect(now).toBeLessThanOrEqual(2);
      release.shift()?.();
    }
    await queue.idle();
    expect(most).toBe(2);
  });
});

describe.each(databaseKinds)('closing a job queue on %s', (kind) => {
  it('waits for the running attempt and takes no new jobs', async () => {
    const database = await createTestDatabase(kind);
    try {
      const queue = await createJobQueue(database, { log: silentLog, pollIntervalMs: 50 });
      let finished = 0;
      let started = 0;
      let release = () => {};
      await queue.register(
        'closing',
        async () => {
          started++;
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          finished++;
        },
        options({ concurrency: 1 }),
      );
      await queue.enqueue('closing', { id: 'x', n: 1 });
      await until(() => started === 1, 'the first job to start');
      const closing = queue.close();
      await queue.enqueue('closing', { id: 'x', n: 2 });
      release();
      await closing;
      expect(finished).toBe(1);
      expect(started).toBe(1);
    } finally {
      await database.close();
    }
  });
});

describe.each(databaseKinds)('observing job attempts on %s', (kind) => {
  it('tells the observer how each attempt ended and how long it took', async () => {
    const database = await createTestDatabase(kind);
    const seen: Array<{ job: string; outcome: JobAttemptOutcome; seconds: number }> = [];
    const queue = await createJobQueue(database, {
      log: silentLog,
      pollIntervalMs: 50,
      observeAttempt: (job, outcome, seconds) => seen.push({ job, outcome, seconds }),
    });
    try {
      await queue.register(
        'observed',
        async (_, { attempt }) => {
          if (attempt === 1) throw new Error('transient');
          if (attempt === 2) await new Promise<void>(() => {});
        },
        options({ timeoutMs: 50 }),
      );
      await queue.enqueue('observed', { id: 'o', n: 1 });
      await queue.idle();
      expect(seen.map(({ job, outcome }) => [job, outcome])).toEqual([
        ['observed', 'failed'],
        ['observed', 'timed_out'],
        ['observed', 'succeeded'],
      ]);
      expect(seen[1]?.seconds).toBeGreaterThanOrEqual(0.04);
    } finally {
      await queue.close();
      await database.close();
    }
  });
});

describe.runIf(databaseKinds.includes('postgres'))('pg-boss queues sharing one database', () => {
  let database: DatabaseHandle;
  const queues: JobQueue[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const queue of queues) await queue.close();
    await database.close();
  });
  const open = async (runJobs: boolean) => {
    const queue = await createJobQueue(database, { log: silentLog, runJobs, pollIntervalMs: 50 });
    queues.push(queue);
    return queue;
  };

  it('runs a job enqueued by a server that runs none on a server that does', async () => {
    const web = await open(false);
    const worker = await open(true);
    const ranOn: string[] = [];
    await web.register(
      'shared',
      async () => {
        ranOn.push('web');
      },
      options(),
    );
    await worker.register(
      'shared',
      async (data) => {
        ranOn.push(`worker:${data.n}`);
      },
      options(),
    );
    await web.enqueue('shared', { id: 's', n: 1 });
    await web.idle();
    expect(ranOn).toEqual(['worker:1']);
  });

  it('reports a last attempt lost with its process instead of running it again', async () => {
    const worker = await open(true);
    const failures: unknown[] = [];
    let runs = 0;
    const idle = await open(false);
    const queueOptions = options({
      retries: 1,
      onFailure: async (_, error) => {
        failures.push(error);
      },
    });
    await idle.register('lost', async () => {}, queueOptions);
    await idle.enqueue('lost', { id: 'l', n: 1 });
    // As a process that died during the last attempt leaves it once pg-boss expires it: the
    // attempts are used up and the job waits for one more.
    await database.db.execute(
      sql`update pgboss.job set state = 'retry', started_on = now(), retry_count = 1
          where name = 'lost'`,
    );
    await worker.register(
      'lost',
      async () => {
        runs++;
      },
      queueOptions,
    );
    await worker.idle();
    expect(runs).toBe(0);
    expect(failures).toHaveLength(1);
  });
});
