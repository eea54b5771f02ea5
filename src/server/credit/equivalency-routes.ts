import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  EQUIVALENCY_CSV_CONTENT_TYPE,
  EQUIVALENCY_CSV_MAX_BYTES,
  EQUIVALENCY_FILE_NAME_MAX_LENGTH,
  EQUIVALENCY_REFUSED_MESSAGE,
  type EquivalencyImportSummary,
  type EquivalencyProblemsBody,
  type EquivalencyTableView,
  equivalencyUrls,
} from '../../shared/credit/equivalency-api';
import type { AppDatabase } from '../db/database';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffSessions, staffOf } from '../staff/staff-sessions';
import type { EquivalenciesStore } from './equivalencies-store';
import {
  EquivalencyImportError,
  type EquivalencyList,
  readEquivalencyCsv,
  storeEquivalencies,
  summaryOf,
} from './equivalency-import';

/**
 * The file's text, kept out of sight of the hook that refuses a NUL anywhere in a body
 * (storable-text-check.ts): a private field is not walked, so a NUL or a stray control character
 * is reported by the reader with its line, as every other problem of the file is.
 */
class CsvBody {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  get text(): string {
    return this.#text;
  }
}

const fileQuery = z.object({
  file_name: z.string().trim().min(1).max(EQUIVALENCY_FILE_NAME_MAX_LENGTH).optional(),
});

export interface EquivalencyRoutesOptions {
  /** For the import, which opens its transaction through the store (storeEquivalencies). */
  db: AppDatabase;
  sessions: StaffSessions;
  store: EquivalenciesStore;
  /** Told once an import is committed, with the colleges whose tables it replaced. */
  onImported?: (colleges: readonly string[]) => Promise<unknown>;
}

/**
 * Equivalency tables in the console (`credit.tables`): the tables loaded, a file checked, and a
 * file imported, replacing the tables of the colleges it names. The body is the CSV file itself.
 */
export const equivalencyRoutes: FastifyPluginAsync<EquivalencyRoutesOptions> = async (
  parent,
  context,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { sessions, store } = context;
  const guard = sessions.guard('credit.tables');

  app.addContentTypeParser(
    EQUIVALENCY_CSV_CONTENT_TYPE,
    { parseAs: 'string', bodyLimit: EQUIVALENCY_CSV_MAX_BYTES },
    (_request, body: string, done) => done(null, new CsvBody(body)),
  );

  /** The file's list, or null when the answer (400 with every problem) is already sent. */
  function readBody(request: FastifyRequest, reply: FastifyReply): EquivalencyList | null {
    const body = request.body;
    if (!(body instanceof CsvBody))
      throw new HttpError(415, `Send the file as ${EQUIVALENCY_CSV_CONTENT_TYPE}.`);
    try {
      return readEquivalencyCsv(body.text);
    } catch (error) {
      if (!(error instanceof EquivalencyImportError)) throw error;
      const answer: EquivalencyProblemsBody = {
        message: EQUIVALENCY_REFUSED_MESSAGE,
        problems: [...error.problems],
      };
      reply.status(400).send(answer);
      return null;
    }
  }

  const csvRoute = {
    onRequest: guard,
    bodyLimit: EQUIVALENCY_CSV_MAX_BYTES,
    schema: { querystring: fileQuery },
  };

  app.get(equivalencyUrls.tables, { onRequest: guard }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const tables = await store.listTables();
    return tables.map(
      (table): EquivalencyTableView => ({
        ceeb: table.ceeb,
        name: table.name,
        row_count: table.rowCount,
        file_name: table.fileName,
        imported_by_label: table.importedByLabel,
        imported_at: table.importedAt.toISOString(),
      }),
    );
  });

  app.post(equivalencyUrls.check, csvRoute, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const list = readBody(request, reply);
    if (!list) return reply;
    return {
      ...summaryOf(list),
      file_name: request.query.file_name ?? '',
    } satisfies EquivalencyImportSummary;
  });

  app.post(equivalencyUrls.tables, csvRoute, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const list = readBody(request, reply);
    if (!list) return reply;
    const staff = staffOf(request);
    const fileName = request.query.file_name ?? 'equivalencies.csv';
    const summary = await storeEquivalencies(context.db, list, {
      fileName,
      importedBy: staff.displayName || staff.email,
      onStored: (stored, tx) =>
        request.audit.record(
          {
            action: 'equivalencies.imported',
            detail: { colleges: stored.colleges, rows: stored.rows, file_name: fileName },
          },
          tx,
        ),
    });
    // The applications of those colleges are mapped again before the answer, so the list the
    // administrator goes back to already reflects the new tables.
    await context.onImported?.(summary.colleges.map((college) => college.ceeb));
    return { ...summary, file_name: fileName } satisfies EquivalencyImportSummary;
  });
};
