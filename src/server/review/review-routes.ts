import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  type Agreement,
  type ApplicationNote,
  type ApplicationReviews,
  type CommitteeView,
  createNoteSchema,
  REVIEW_API,
  type ReadView,
  readIdParams,
  saveDraftSchema,
  startReadSchema,
  submitReadSchema,
} from '../../shared/review/review-api';
import { applicationIdParams } from '../../shared/staff/staff-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffSessions, staffOf } from '../staff/staff-sessions';
import { auditRefusedChanges } from './refusal-audit';
import { createReviewService, type Reader, type ReviewAuditNote } from './review-service';
import type { NoteRow, ReviewStore } from './review-store';

export interface ReviewRoutesOptions {
  sessions: StaffSessions;
  store: ReviewStore;
  tenant: Pick<TenantConfig, 'review' | 'decisions'>;
  /**
   * Gives reads waiting for a reader (a third read a score gap started) one; called after the
   * submit that started it has committed. Unset: they wait for an administrator.
   */
  onReadsWaiting?: (accountId: string) => Promise<void>;
  /**
   * Called in the background after a member with an open read of the application has been given
   * its reads: prepares what they will open next (see next-pdfs.ts). Unset: nothing.
   */
  onOpenReadViewed?: (readerId: string, applicationId: string) => Promise<void>;
}

function readerOf(request: FastifyRequest): Reader {
  const staff = staffOf(request);
  return { id: staff.id, role: staff.role };
}

function auditOf(request: FastifyRequest, refusals: WeakSet<FastifyRequest>): ReviewAuditNote {
  return (entry, tx) => {
    if (entry.action === 'review.refused') refusals.add(request);
    return request.audit.record(entry, tx);
  };
}

function noteView(row: NoteRow): ApplicationNote {
  return {
    id: row.id,
    author: row.author,
    body: row.body,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Reading in the console: an application's reads as the blind rule lets the member see them,
 * starting, saving and submitting one's own read, the committee's unredacted view, the agreement
 * between readers, and staff's internal notes. What a member may see is decided here, never by
 * the browser.
 */
export const reviewRoutes: FastifyPluginAsync<ReviewRoutesOptions> = async (parent, context) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { sessions, store } = context;
  const refusals = new WeakSet<FastifyRequest>();
  auditRefusedChanges(app, refusals);
  const reviews = createReviewService({
    store,
    tenant: context.tenant,
    onReadsWaiting: context.onReadsWaiting,
    log: app.log,
  });

  app.get(
    REVIEW_API.applicationReviews(':applicationId'),
    { onRequest: sessions.guard('reviews.read'), schema: { params: applicationIdParams } },
    async (request, reply): Promise<ApplicationReviews> => {
      reply.header('cache-control', 'no-store');
      const id = request.params.applicationId;
      const view = await reviews.applicationReviews(id, readerOf(request));
      await request.audit.record({ action: 'review.view', applicationId: id });
      const prepare = context.onOpenReadViewed;
      if (prepare && view.mine && view.mine.status !== 'submitted') {
        // Not awaited: the reader's answer never waits for what their next step needs.
        prepare(readerOf(request).id, id).catch((error: unknown) =>
          request.log.warn({ err: error }, 'the next application PDFs were not started'),
        );
      }
      return view;
    },
  );

  app.post(
    REVIEW_API.applicationReviews(':applicationId'),
    {
      onRequest: sessions.guard('reviews.read'),
      schema: { params: applicationIdParams, body: startReadSchema.optional() },
    },
    async (request, reply): Promise<ReadView> => {
      reply.header('cache-control', 'no-store');
      return reviews.start(
        request.params.applicationId,
        readerOf(request),
        auditOf(request, refusals),
      );
    },
  );

  app.put(
    REVIEW_API.draft(':readId'),
    {
      onRequest: sessions.guard('reviews.read'),
      schema: { params: readIdParams, body: saveDraftSchema },
    },
    async (request, reply): Promise<ReadView> => {
      reply.header('cache-control', 'no-store');
      return reviews.saveDraft(
        request.params.readId,
        request.body.answers,
        readerOf(request),
        auditOf(request, refusals),
      );
    },
  );

  app.post(
    REVIEW_API.submit(':readId'),
    {
      onRequest: sessions.guard('reviews.read'),
      schema: { params: readIdParams, body: submitReadSchema.optional() },
    },
    async (request, reply): Promise<ReadView> => {
      reply.header('cache-control', 'no-store');
      return reviews.submit(request.params.readId, readerOf(request), auditOf(request, refusals));
    },
  );

  app.get(
    REVIEW_API.committee(':applicationId'),
    { onRequest: sessions.guard('reviews.committee'), schema: { params: applicationIdParams } },
    async (request, reply): Promise<CommitteeView> => {
      reply.header('cache-control', 'no-store');
      const id = request.params.applicationId;
      const view = await reviews.committee(id);
      await request.audit.record({ action: 'review.committee_view', applicationId: id });
      return view;
    },
  );

  app.get(
    REVIEW_API.agreement,
    { onRequest: sessions.guard('reviews.committee') },
    async (request, reply): Promise<Agreement> => {
      reply.header('cache-control', 'no-store');
      const agreement = await reviews.agreement();
      await request.audit.record({ action: 'review.agreement_view' });
      return agreement;
    },
  );

  app.get(
    REVIEW_API.notes(':applicationId'),
    { onRequest: sessions.guard('applications.read'), schema: { params: applicationIdParams } },
    async (request, reply): Promise<ApplicationNote[]> => {
      reply.header('cache-control', 'no-store');
      const id = request.params.applicationId;
      if (!(await store.application(id))) throw new HttpError(404, NOT_FOUND_MESSAGE);
      const notes = await store.notesOf(id);
      await request.audit.record({ action: 'application.notes_view', applicationId: id });
      return notes.map(noteView);
    },
  );

  app.post(
    REVIEW_API.notes(':applicationId'),
    {
      onRequest: sessions.guard('applications.read'),
      schema: { params: applicationIdParams, body: createNoteSchema },
    },
    async (request, reply): Promise<ApplicationNote> => {
      reply.header('cache-control', 'no-store');
      const id = request.params.applicationId;
      const staff = staffOf(request);
      const note = await store.transaction(async (tx) => {
        if (!(await store.application(id, tx))) throw new HttpError(404, NOT_FOUND_MESSAGE);
        const added = await store.addNote(
          {
            accountId: id,
            authorId: staff.id,
            authorLabel: staff.displayName || staff.email,
            body: request.body.body,
          },
          tx,
        );
        await request.audit.record(
          { action: 'application.note_added', applicationId: id, detail: { note_id: added.id } },
          tx,
        );
        return added;
      });
      return noteView(note);
    },
  );
};
