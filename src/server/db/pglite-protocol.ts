import type { Results, RowMode } from '@electric-sql/pglite';

/** What the embedded database's thread is started with. */
export interface PgliteWorkerData {
  /** Undefined keeps the database in memory. */
  dataDir: string | undefined;
  migrationsFolder: string;
}

/** A message from the server's thread to the embedded database's. */
export type PgliteRequest =
  | {
      id: number;
      kind: 'query';
      sql: string;
      params: unknown[];
      rowMode: RowMode | undefined;
      /** Types whose values come back as PostgreSQL's text instead of parsed. */
      textTypes: number[];
    }
  | { id: number; kind: 'exec'; sql: string }
  | { id: number; kind: 'memory' }
  | { id: number; kind: 'close' };

/** The embedded database thread's memory, as V8 and PGlite's WebAssembly runtime count it. */
export interface PgliteThreadMemory {
  /** The cap on the thread's young generation it was started with (MB). */
  youngGenerationLimitMb: number;
  /** Bytes the young generation holds now, in use or not: what it adds to the process. */
  youngGenerationBytes: number;
  /** The thread's whole V8 heap, and the part of it in use. */
  heapTotalBytes: number;
  heapUsedBytes: number;
  /** PGlite's WebAssembly memory: PostgreSQL's own, which can grow and never shrinks. */
  wasmBytes: number;
}

/** The answer to one request, matched by its id. */
export type PgliteResponse =
  | { id: number; ok: true; result: Results | Results[] | PgliteThreadMemory | null }
  | { id: number; ok: false; message: string; fields?: Record<string, string> };

/** The first message from the embedded database's thread: opened and migrated, or not. */
export type PgliteReady = { ready: true } | { ready: false; message: string };
