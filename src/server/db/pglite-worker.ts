// The embedded database's own thread: opens PGlite on the data directory, migrates it, then runs
// the statements the server's thread sends (see pglite-thread.ts), one at a time, in the order
// they arrive.
import v8 from 'node:v8';
import { parentPort, resourceLimits, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { namedStatements } from './pglite-named-statements';
import type {
  PgliteRequest,
  PgliteResponse,
  PgliteThreadMemory,
  PgliteWorkerData,
} from './pglite-protocol';

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread');
const { dataDir, migrationsFolder } = workerData as PgliteWorkerData;

/** An error as plain data: structured cloning keeps an Error's message but not PostgreSQL's fields. */
function plainError(error: unknown): PgliteResponse & { ok: false } {
  if (!(error instanceof Error)) return { id: 0, ok: false, message: String(error) };
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = String(value);
  }
  return { id: 0, ok: false, message: error.message, fields };
}

/** Values of these types stay as PostgreSQL's text, as the caller's parsers asked. */
function textParsers(types: readonly number[]) {
  return Object.fromEntries(types.map((type) => [type, (value: string) => value]));
}

/**
 * PostgreSQL's shared buffers, down from its default of 128 MB, for a server on a small machine
 * (docs/benchmarks.md, memory): PGlite's WebAssembly memory holds them, every page of them
 * touched as PostgreSQL starts, so they counted in full in the process's memory from the first
 * minute. A page not among them is read from the data directory through the operating system,
 * whose page cache keeps the database's files as it would PostgreSQL's own.
 */
const SHARED_BUFFERS = '16MB';

/** What this thread holds: its V8 heap, as V8 counts it, and PostgreSQL's WebAssembly memory. */
function memoryOf(client: PGlite): PgliteThreadMemory {
  const heap = v8.getHeapStatistics();
  const youngGenerationBytes = v8
    .getHeapSpaceStatistics()
    .filter((space) => space.space_name.startsWith('new_'))
    .reduce((sum, space) => sum + space.space_size, 0);
  return {
    youngGenerationLimitMb: resourceLimits.maxYoungGenerationSizeMb ?? 0,
    youngGenerationBytes,
    heapTotalBytes: heap.total_heap_size,
    heapUsedBytes: heap.used_heap_size,
    // PGlite keeps its Emscripten module protected; its memory's size is only read here.
    wasmBytes:
      (client as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod?.HEAPU8?.byteLength ?? 0,
  };
}

async function open(): Promise<PGlite> {
  // pg_trgm backs fuzzy search over names, as it does on PostgreSQL.
  const client = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    // PGlite's own start parameters, kept, with the one setting changed.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  });
  await migrate(drizzle(client), { migrationsFolder });
  return client;
}

try {
  const client = await open();
  const statements = namedStatements(client);
  port.on('message', async (request: PgliteRequest) => {
    let response: PgliteResponse;
    try {
      if (request.kind === 'query') {
        const result = await statements.query<Record<string, unknown>>(
          request.sql,
          request.params,
          {
            rowMode: request.rowMode,
            parsers: textParsers(request.textTypes),
          },
        );
        response = { id: request.id, ok: true, result };
      } else if (request.kind === 'exec') {
        response = { id: request.id, ok: true, result: await client.exec(request.sql) };
      } else if (request.kind === 'memory') {
        response = { id: request.id, ok: true, result: memoryOf(client) };
      } else {
        await client.close();
        response = { id: request.id, ok: true, result: null };
      }
    } catch (error) {
      response = { ...plainError(error), id: request.id };
    }
    port.postMessage(response);
    // Closed: letting go of the port leaves the thread nothing to wait for, so it ends.
    if (request.kind === 'close') port.close();
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, ...plainError(error) });
}
