import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { projectRoot } from '../config/project-root';
import type {
  PgliteReady,
  PgliteRequest,
  PgliteResponse,
  PgliteThreadMemory,
  PgliteWorkerData,
} from './pglite-protocol';

/** A request before it is given its id. */
type Unnumbered<Request> = Request extends unknown ? Omit<Request, 'id'> : never;

/** What a statement inside `transaction` runs on. */
export interface PgliteThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

/**
 * The embedded database run on a thread of its own, with the part of PGlite's interface Drizzle
 * uses. PGlite is PostgreSQL compiled to WebAssembly: on the server's thread every statement
 * blocks HTTP for as long as it runs, and under load requests queued behind the database until
 * they timed out. On its own thread the database and HTTP use a core each.
 */
export interface PgliteThread extends PgliteThreadTransaction {
  transaction<T>(work: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T>;
  /** The thread's memory; it reads no data, so it does not wait for an open transaction. */
  memory(): Promise<PgliteThreadMemory>;
  close(): Promise<void>;
}

/** The worker's script: the TypeScript source under tsx (development, tests), else the build's. */
function workerScript(): { url: URL; execArgv: string[] } {
  if (import.meta.url.endsWith('.ts')) {
    return { url: new URL('./pglite-worker.ts', import.meta.url), execArgv: ['--import', 'tsx'] };
  }
  return {
    url: pathToFileURL(path.join(projectRoot, 'dist', 'server', 'pglite-worker.js')),
    execArgv: [],
  };
}

/** Drizzle's parsers only keep some types as text; the thread is told which, as functions cannot cross. */
function textTypesOf(options: QueryOptions | undefined): number[] {
  if (options?.serializers || options?.blob || options?.onNotice || options?.paramTypes) {
    throw new Error('The embedded database thread takes rowMode and text parsers only.');
  }
  return Object.keys(options?.parsers ?? {}).map(Number);
}

/**
 * The most the database thread's young generation (V8's space for new objects) may take, in MB:
 * Node 20's default. Node 24 lets a thread's young generation grow to 192 MB. The database
 * thread makes every query's result anew, and under load its young generation grew in steps,
 * 16 to 32 to 64 MB and more with under 30 MB of it in use, and V8 gave it back only now and
 * then: each step stayed in the process's memory for minutes (docs/benchmarks.md, memory). A
 * cap on the young generation only makes V8 collect it more often: what outlives it moves to the
 * old generation, whose limit is left as it is, so a large result cannot run the thread out of
 * memory.
 */
export const DATABASE_THREAD_YOUNG_GENERATION_MB = 48;

/** How long a closed database's thread may take to end by itself before it is stopped. */
const THREAD_EXIT_GRACE_MS = 10_000;

export async function startPgliteThread(data: PgliteWorkerData): Promise<PgliteThread> {
  const script = workerScript();
  const worker = new Worker(script.url, {
    workerData: data,
    execArgv: script.execArgv,
    resourceLimits: { maxYoungGenerationSizeMb: DATABASE_THREAD_YOUNG_GENERATION_MB },
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let stopped: Error | null = null;

  const ready = new Promise<void>((resolve, reject) => {
    worker.once('message', (message: PgliteReady) => {
      if (message.ready) resolve();
      else reject(new Error(`The embedded database could not open: ${message.message}`));
    });
    worker.once('error', reject);
  });

  const stop = (error: Error) => {
    stopped ??= error;
    for (const { reject } of pending.values()) reject(stopped);
    pending.clear();
  };
  worker.on('error', (error) => stop(new Error(`The embedded database failed: ${error.message}`)));
  worker.on('exit', (code) => stop(new Error(`The embedded database stopped (exit ${code}).`)));
  worker.on('message', (message: PgliteResponse | PgliteReady) => {
    if (!('id' in message)) return;
    const call = pending.get(message.id);
    if (!call) return;
    pending.delete(message.id);
    if (message.ok) call.resolve(message.result);
    else call.reject(Object.assign(new Error(message.message), message.fields ?? {}));
  });

  function send<T>(request: Unnumbered<PgliteRequest>): Promise<T> {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  }

  const direct: PgliteThreadTransaction = {
    query: <T>(sql: string, params: unknown[] = [], options?: QueryOptions) =>
      send<Results<T>>({
        kind: 'query',
        sql,
        params,
        rowMode: options?.rowMode,
        textTypes: textTypesOf(options),
      }),
    exec: (sql: string) => send<Results[]>({ kind: 'exec', sql }),
  };

  // One connection, as PGlite is: while a transaction is open, every other statement waits for
  // it to end, then goes in the order it was asked for.
  let gate: Promise<void> = Promise.resolve();

  try {
    await ready;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  let closing = false;
  const refuseWhenClosing = () => {
    if (closing) throw new Error('The embedded database is closed.');
  };

  return {
    query: async (sql, params, options) => {
      refuseWhenClosing();
      await gate;
      return direct.query(sql, params, options);
    },
    exec: async (sql) => {
      refuseWhenClosing();
      await gate;
      return direct.exec(sql);
    },
    memory: async () => {
      refuseWhenClosing();
      return send<PgliteThreadMemory>({ kind: 'memory' });
    },
    async transaction<T>(work: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T> {
      refuseWhenClosing();
      const previous = gate;
      let release = () => {};
      gate = new Promise((resolve) => {
        release = resolve;
      });
      // Usable only until the transaction ends: later it would slip past the gate into another.
      let open = true;
      const ensureOpen = () => {
        if (!open) throw new Error('This transaction has ended.');
      };
      const tx: PgliteThreadTransaction = {
        query: async (sql, params, options) => {
          ensureOpen();
          return direct.query(sql, params, options);
        },
        exec: async (sql) => {
          ensureOpen();
          return direct.exec(sql);
        },
      };
      try {
        await previous;
        await direct.exec('begin');
        try {
          const result = await work(tx);
          const [committed] = await direct.exec('commit');
          // A transaction in which a statement failed ends in a rollback, which COMMIT reports
          // without an error: its work was not stored, so it must not look as if it were.
          if (committed?.command === 'ROLLBACK') {
            throw new Error('The transaction failed and was rolled back.');
          }
          return result;
        } catch (error) {
          await direct.exec('rollback').catch(() => undefined);
          throw error;
        }
      } finally {
        open = false;
        release();
      }
    },
    async close() {
      if (stopped || closing) return;
      closing = true;
      await gate;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      await send({ kind: 'close' });
      stop(new Error('The embedded database is closed.'));
      // The thread ends by itself once PGlite has closed; forcing it down while the WebAssembly
      // runtime is still unwinding can take the whole process with it, so that is the fallback.
      let fallback: NodeJS.Timeout | undefined;
      await Promise.race([
        exited,
        new Promise<void>((resolve) => {
          fallback = setTimeout(resolve, THREAD_EXIT_GRACE_MS);
        }),
      ]);
      clearTimeout(fallback);
      await worker.terminate();
    },
  };
}
