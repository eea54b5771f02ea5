import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { FILE_MAX_BYTES } from '../../shared/constants';
import {
  type CollegeTranscript,
  type CreditEvaluationView,
  creditUrls,
  reviewBodySchema,
} from '../../shared/credit/credit-api';
import type { CreditEvaluation } from '../../shared/credit/credit-evaluation';
import { roleAllows } from '../../shared/staff/permissions';
import { applicationIdParams } from '../../shared/staff/staff-api';
import type { ChecklistService } from '../checklist/checklist-service';
import { HttpError } from '../http/http-error';
import { pdfDownloadName, sendPdf } from '../http/send-pdf';
import type { ZodTypeProvider } from '../http/zod-validation';
import { lazy } from '../runtime/lazy';
import type { StaffSessions } from '../staff/staff-sessions';
import { staffOf } from '../staff/staff-sessions';
import { newObjectKey, type StorageDriver } from '../storage/storage';
import { applicantNameOf } from './credit-estimates';
import type { CreditService, EvaluatedApplication } from './credit-service';
import type { CreditStore, Reviewer } from './credit-store';

const NO_STORE = 'private, no-store';

/** pdf-lib loads with the first transcript attached, not with the server. */
const pdfCheck = lazy(() => import('../documents/pdf-check'));

export const TRANSCRIPT_MESSAGES = {
  notPdf: 'Attach the transcript as a PDF file.',
  unknownCollege: 'This application has no such college.',
  noTranscript: 'No transcript is attached for this college.',
} as const;

/** The evaluator's screen's transcript pane: attach one college's PDF, and read it. */
const transcriptUrl = creditUrls.transcript;

const transcriptParams = applicationIdParams.extend({
  gridKey: z.string().regex(/^[a-z0-9_]{1,80}$/, 'Not a college of the application.'),
});
const fileNameQuery = z.strictObject({
  file_name: z.string().trim().min(1).max(200).default('transcript.pdf'),
});
const undoQuery = z.strictObject({ course_ref: z.string().min(1).max(200) });

export interface CreditRoutesOptions {
  sessions: StaffSessions;
  /** An attached official transcript marks its college's checklist item received. */
  checklist: Pick<ChecklistService, 'mark'>;
  credit: CreditService;
  store: CreditStore;
  storage: StorageDriver;
}

function reviewerOf(request: FastifyRequest): Reviewer {
  const staff = staffOf(request);
  return { id: staff.id, label: staff.displayName || staff.email };
}

/**
 * Transfer credit in the console: one application's evaluation (read by any reader, audited),
 * the evaluator's reviews of its courses, and the official transcripts evaluators attach to check
 * them against. Reviews and transcripts need credit.evaluate.
 */
export const creditRoutes: FastifyPluginAsync<CreditRoutesOptions> = async (parent, options) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { sessions, credit, store, storage } = options;
  const read = sessions.guard('applications.read');
  const evaluate = sessions.guard('credit.evaluate');
  const noStore = (reply: FastifyReply) => reply.header('cache-control', NO_STORE);

  // A transcript arrives as the PDF itself; it is rebuilt before it is stored or shown.
  app.addContentTypeParser(
    'application/pdf',
    { parseAs: 'buffer', bodyLimit: FILE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  async function view(
    request: FastifyRequest,
    accountId: string,
    evaluation: CreditEvaluation,
    evaluated?: EvaluatedApplication,
  ): Promise<CreditEvaluationView> {
    const [transcripts, estimate, found] = await Promise.all([
      store.transcriptsOf(accountId),
      store.estimateOf(accountId),
      evaluated ?? credit.required(accountId),
    ]);
    const staff = staffOf(request);
    return {
      ...evaluation,
      application_id: accountId,
      applicant_name: applicantNameOf(found.application.answers),
      transcripts: transcripts
        .filter((row) => evaluation.colleges.some((college) => college.grid_key === row.gridKey))
        .map(
          (row): CollegeTranscript => ({
            grid_key: row.gridKey,
            file_name: row.fileName,
            pdf_url: `${transcriptUrl(accountId, row.gridKey)}/pdf`,
          }),
        ),
      estimate: estimate
        ? { released_at: estimate.releasedAt.toISOString(), released_by: estimate.releasedByLabel }
        : null,
      can_evaluate: roleAllows(staff.role, 'credit.evaluate'),
    };
  }

  app.get(
    creditUrls.evaluation(':applicationId'),
    { onRequest: read, schema: { params: applicationIdParams } },
    async (request, reply): Promise<CreditEvaluationView> => {
      const id = request.params.applicationId;
      const evaluated = await credit.required(id);
      await request.audit.record({ action: 'credit.view', applicationId: id });
      noStore(reply);
      return view(request, id, evaluated.evaluation, evaluated);
    },
  );

  app.put(
    creditUrls.review(':applicationId'),
    { onRequest: evaluate, schema: { params: applicationIdParams, body: reviewBodySchema } },
    async (request, reply): Promise<CreditEvaluationView> => {
      const id = request.params.applicationId;
      const after = await credit.review(id, request.body, reviewerOf(request), request.audit);
      noStore(reply);
      return view(request, id, after);
    },
  );

  app.delete(
    creditUrls.review(':applicationId'),
    { onRequest: evaluate, schema: { params: applicationIdParams, querystring: undoQuery } },
    async (request, reply): Promise<CreditEvaluationView> => {
      const id = request.params.applicationId;
      const after = await credit.undoReview(id, request.query.course_ref, request.audit);
      noStore(reply);
      return view(request, id, after);
    },
  );

  app.post(
    transcriptUrl(':applicationId', ':gridKey'),
    {
      onRequest: evaluate,
      bodyLimit: FILE_MAX_BYTES,
      schema: { params: transcriptParams, querystring: fileNameQuery },
    },
    async (request, reply): Promise<CreditEvaluationView> => {
      const { applicationId: id, gridKey } = request.params;
      if (!(request.headers['content-type'] ?? '').startsWith('application/pdf'))
        throw new HttpError(415, TRANSCRIPT_MESSAGES.notPdf);
      const evaluated = await credit.required(id);
      if (!evaluated.evaluation.colleges.some((college) => college.grid_key === gridKey))
        throw new HttpError(404, TRANSCRIPT_MESSAGES.unknownCollege);
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw new HttpError(400, TRANSCRIPT_MESSAGES.notPdf);
      let pdf: Uint8Array;
      const { loadUploadedPdf, normalisePdf } = await pdfCheck();
      try {
        await loadUploadedPdf(new Uint8Array(body));
        pdf = await normalisePdf(new Uint8Array(body));
      } catch {
        throw new HttpError(400, TRANSCRIPT_MESSAGES.notPdf);
      }
      const storageKey = newObjectKey(id);
      await storage.put(storageKey, pdf);
      const fileName = request.query.file_name;
      const replaced = await store.transaction(async (tx) => {
        const before = await store.attachTranscript(
          id,
          { gridKey, storageKey, fileName, byteSize: pdf.byteLength },
          reviewerOf(request),
          tx,
        );
        await request.audit.record(
          {
            action: 'credit.transcript_attached',
            applicationId: id,
            detail: { grid_key: gridKey, file_name: fileName, bytes: pdf.byteLength },
          },
          tx,
        );
        return before;
      });
      if (replaced) await storage.delete(replaced);
      // The office has the college's official transcript: its checklist item is received.
      const instance = evaluated.grids.find((grid) => grid.key === gridKey)?.instance;
      if (instance)
        await options.checklist.mark(
          id,
          `transcript:${instance}`,
          'received',
          { id: staffOf(request).id, label: reviewerOf(request).label },
          (change, tx) =>
            request.audit.record(
              {
                action: 'checklist.mark',
                applicationId: id,
                detail: {
                  item: change.item,
                  state: change.state,
                  previous: change.previous,
                  because: 'official transcript attached',
                },
              },
              tx,
            ),
        );
      noStore(reply);
      return view(request, id, evaluated.evaluation, evaluated);
    },
  );

  app.get(
    `${transcriptUrl(':applicationId', ':gridKey')}/pdf`,
    { onRequest: read, schema: { params: transcriptParams } },
    async (request, reply) => {
      const { applicationId: id, gridKey } = request.params;
      const row = (await store.transcriptsOf(id)).find((found) => found.gridKey === gridKey);
      const pdf = row ? await storage.get(row.storageKey) : null;
      if (!row || !pdf) throw new HttpError(404, TRANSCRIPT_MESSAGES.noTranscript);
      await request.audit.record({
        action: 'credit.transcript_view',
        applicationId: id,
        detail: { grid_key: gridKey },
      });
      return sendPdf(reply, pdf, pdfDownloadName(row.fileName), 'inline');
    },
  );
};
