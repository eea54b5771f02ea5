import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ServiceView } from '../../shared/api/service';
import { describedCourseworkUpdates } from '../../shared/coursework/coursework-update';
import type { StaffCoursework } from '../../shared/coursework/coursework-update-api';
import type { Answers, FormModel } from '../../shared/form/model';
import { actorName } from '../../shared/staff/actor-names';
import {
  APPLICATION_API_MESSAGES,
  type ApplicationDetail,
  type ApplicationHistoryEntry,
  type ApplicationNeighbours,
} from '../../shared/staff/application-api';
import type { ListViewer } from '../../shared/staff/application-list-api';
import {
  type ApplicationListQuery,
  applicationListQuery,
  listRequestOf,
} from '../../shared/staff/application-list-api';
import { applicationIdParams, STAFF_API } from '../../shared/staff/staff-api';
import { type ApplicationPdfs, awaitApplicationPdf } from '../application-pdf/application-pdfs';
import { sendApplicationPdf } from '../application-pdf/send-application-pdf';
import { listApplications } from '../applications-list/applications-list-store';
import { listViewerOf } from '../applications-list/list-viewer';
import { type AuditStore, auditEventView } from '../audit/audit-store';
import type { ChecklistService } from '../checklist/checklist-service';
import { shownCourseworkGrids } from '../coursework/coursework-overview';
import type { CourseworkUpdatesStore } from '../coursework/coursework-updates-store';
import type { AppDatabase } from '../db/database';
import type { DecisionService } from '../decisions/decision-service';
import type { DocumentsStore } from '../documents/documents-store';
import { fileQuestionKeys } from '../documents/file-question-keys';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import { pdfDownloadName, sendPdf } from '../http/send-pdf';
import type { ZodTypeProvider } from '../http/zod-validation';
import { receiptView } from '../receipts/receipts-service';
import { findReceipt } from '../receipts/receipts-store';
import { type StaffSessions, staffOf } from '../staff/staff-sessions';
import type { StorageDriver } from '../storage/storage';
import type { ApplicationViewStore } from './application-view-store';

/** The newest entries of an application's history the page shows. */
export const HISTORY_LIMIT = 200;

const NO_STORE = 'private, no-store';

const dispositionQuery = z.strictObject({
  disposition: z
    .enum(['inline', 'attachment'], { error: 'disposition is inline or attachment.' })
    .optional(),
});

const documentParams = applicationIdParams.extend({
  key: z.string().min(1).max(200),
});

/**
 * The application before and after `id` in the list a reader came from. The page carries the
 * list's page, so the search is that page and, when the list moved under the reader (a new
 * application, a changed status), the pages on either side of it.
 */
async function neighboursIn(
  db: AppDatabase,
  id: string,
  query: ApplicationListQuery,
  viewer: ListViewer,
): Promise<ApplicationNeighbours> {
  const request = listRequestOf(query, viewer);
  const pages = [request.page, request.page - 1, request.page + 1].filter((page) => page >= 1);
  for (const page of pages) {
    const found = await listApplications(db, { ...request, page });
    const index = found.rows.findIndex((row) => row.id === id);
    if (index === -1) continue;
    const place = (page - 1) * request.pageSize + index;
    const before = found.rows[index - 1];
    const after = found.rows[index + 1];
    const previous =
      before ??
      (page > 1
        ? (await listApplications(db, { ...request, page: page - 1 })).rows.at(-1)
        : undefined);
    const next =
      after ??
      (place + 1 < found.total
        ? (await listApplications(db, { ...request, page: page + 1 })).rows[0]
        : undefined);
    return {
      previous: previous?.id ?? null,
      next: next?.id ?? null,
      previous_page: previous ? (before ? page : page - 1) : null,
      next_page: next ? (after ? page : page + 1) : null,
      position: place + 1,
      total: found.total,
    };
  }
  return {
    previous: null,
    next: null,
    previous_page: null,
    next_page: null,
    position: null,
    total: 0,
  };
}

export interface ApplicationViewRoutesOptions {
  db: AppDatabase;
  model: FormModel;
  sessions: StaffSessions;
  store: ApplicationViewStore;
  documents: DocumentsStore;
  /** The application's own history is its entries in the audit trail. */
  auditStore: AuditStore;
  storage: StorageDriver;
  pdfs: ApplicationPdfs;
  checklist: Pick<ChecklistService, 'of'>;
  decisions: Pick<DecisionService, 'staffDecisionOf'>;
  /** Coursework the applicant added after submit, and the totals stored for the list. */
  coursework: Pick<CourseworkUpdatesStore, 'updatesOf' | 'totalsOf'>;
}

/**
 * One application in the console: its answers (drawn by the browser with the same printable
 * projection as the staff link and the PDF), its checklist, its documents and PDF, its own audit
 * history, and its neighbours in the reader's list. Every read of the applicant's data is
 * recorded; the history and the neighbours only name applications by id.
 */
export const applicationViewRoutes: FastifyPluginAsync<ApplicationViewRoutesOptions> = async (
  parent,
  context,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { db, sessions, storage, pdfs, store, documents, auditStore, decisions } = context;
  const fileKeys = fileQuestionKeys(context.model);
  const read = sessions.guard('applications.read');

  async function existing(id: string): Promise<void> {
    if (!(await store.exists(id))) throw new HttpError(404, NOT_FOUND_MESSAGE);
  }

  const noStore = (reply: FastifyReply) => reply.header('cache-control', NO_STORE);

  app.get(
    `${STAFF_API}/applications/:applicationId`,
    { onRequest: read, schema: { params: applicationIdParams } },
    async (request, reply): Promise<ApplicationDetail & StaffCoursework> => {
      const { applicationId: id } = request.params;
      const found = await store.find(id);
      if (!found) throw new HttpError(404, NOT_FOUND_MESSAGE);
      const [documentAnswer, checklist, receipt, decision, updates, totals] = await Promise.all([
        documents.completedAnswers(id),
        context.checklist.of(id),
        findReceipt(db, id),
        decisions.staffDecisionOf(id),
        context.coursework.updatesOf(id),
        context.coursework.totalsOf(id),
      ]);
      await store.transaction(async (tx) => {
        await request.audit.record({ action: 'application.view', applicationId: id }, tx);
        await store.recordView(staffOf(request).id, id, tx);
      });
      const colleges = new Map(
        shownCourseworkGrids(context.model, found).map((grid) => [grid.key, grid.college]),
      );
      const view: ServiceView = {
        answer: found.answers as Answers,
        add_another: found.addAnother,
        document_answer: documentAnswer,
        tabs: found.tabs,
      };
      noStore(reply);
      return {
        id,
        email: found.email,
        status: found.status,
        submitted_at: found.submittedAt?.toISOString() ?? null,
        last_activity: found.updatedAt.toISOString(),
        view,
        checklist: checklist ?? { items: [], missing: 0 },
        receipt: receipt ? receiptView(receipt) : null,
        sis_id: found.sis
          ? {
              value: found.sis.sisId,
              set_by: found.sis.setByLabel,
              set_at: found.sis.setAt.toISOString(),
            }
          : null,
        decision,
        // The answers above are as submitted; each update after submit is the grid afterwards.
        coursework_updates: describedCourseworkUpdates(found.answers, updates).map((update) => ({
          answer_key: update.key,
          college: colleges.get(update.key) ?? '',
          answer: update.answer,
          created_at: update.createdAt.toISOString(),
          lines: update.lines,
        })),
        coursework_totals: totals
          ? {
              transfer_gpa: totals.gpa,
              transfer_units: totals.transferUnits,
              in_progress_units: totals.inProgressUnits,
              updated_at: totals.updatedAt.toISOString(),
            }
          : null,
      };
    },
  );

  app.get(
    `${STAFF_API}/applications/:applicationId/neighbours`,
    { onRequest: read, schema: { params: applicationIdParams, querystring: applicationListQuery } },
    async (request, reply): Promise<ApplicationNeighbours> => {
      if (request.query.email !== undefined) {
        throw new HttpError(400, APPLICATION_API_MESSAGES.neighboursEmail);
      }
      await existing(request.params.applicationId);
      noStore(reply);
      return neighboursIn(
        db,
        request.params.applicationId,
        request.query,
        listViewerOf(staffOf(request)),
      );
    },
  );

  app.get(
    `${STAFF_API}/applications/:applicationId/history`,
    { onRequest: read, schema: { params: applicationIdParams } },
    async (request, reply): Promise<ApplicationHistoryEntry[]> => {
      const { applicationId: id } = request.params;
      await existing(id);
      const rows = await auditStore.page({ application: id }, { limit: HISTORY_LIMIT });
      noStore(reply);
      return rows.map(auditEventView).map((event) => ({
        seq: event.seq,
        at: event.at,
        action: event.action,
        actor: actorName(event.actor_type, event.actor_label),
        detail: event.detail,
      }));
    },
  );

  app.get(
    `${STAFF_API}/applications/:applicationId/pdf`,
    { onRequest: read, schema: { params: applicationIdParams, querystring: dispositionQuery } },
    async (request, reply) => {
      const { applicationId: id } = request.params;
      await existing(id);
      const found = await awaitApplicationPdf(pdfs, id);
      await request.audit.record({
        action: 'application_pdf.view',
        applicationId: id,
      });
      return sendApplicationPdf(reply, found, request.query.disposition ?? 'attachment');
    },
  );

  app.get(
    `${STAFF_API}/applications/:applicationId/documents/:key/pdf`,
    { onRequest: read, schema: { params: documentParams, querystring: dispositionQuery } },
    async (request, reply) => {
      const { applicationId: id, key } = request.params;
      await existing(id);
      if (!fileKeys.has(key)) throw new HttpError(404, NOT_FOUND_MESSAGE);
      const row = await documents.completedPdf(id, key);
      const pdf = row ? await storage.get(row.pdfKey) : null;
      if (!row || !pdf) throw new HttpError(404, NOT_FOUND_MESSAGE);
      const disposition = request.query.disposition ?? 'inline';
      await request.audit.record({
        action: 'document.view',
        applicationId: id,
        detail: { answer_key: key, disposition },
      });
      return sendPdf(reply, pdf, pdfDownloadName(row.fileName), disposition);
    },
  );
};
