import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { termName } from '../../shared/coursework/coursework';
import { isBlankCourse } from '../../shared/coursework/coursework-answer';
import type { CourseworkTotals } from '../../shared/coursework/coursework-totals';
import { courseworkTotalsOf, enteredCoursework } from '../../shared/form/coursework-grids';
import { DESC_SUFFIX, type FormModel, type FormState, storesDesc } from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';
import {
  type ApiApplication,
  type ApiChecklist,
  type ApplicationPage,
  apiChecklistSchema,
  applicationIdParamsSchema,
  applicationPageSchema,
  applicationSchema,
  checklistItemParamsSchema,
  checklistMarkBodySchema,
  DECISION_EVENT_TYPES,
  type DecisionPage,
  decisionPageSchema,
  documentParamsSchema,
  feedQuerySchema,
  sisIdBodySchema,
  sisIdResultSchema,
} from '../../shared/integration/api-schemas';
import { PROBLEM_CONTENT_TYPE } from '../../shared/integration/problem';
import type { Checklist } from '../../shared/staff/application-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { ApplicationPdfs } from '../application-pdf/application-pdfs';
import { sendApplicationPdf } from '../application-pdf/send-application-pdf';
import type { ChecklistService } from '../checklist/checklist-service';
import type { DocumentsStore } from '../documents/documents-store';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import { pdfDownloadName, sendPdf } from '../http/send-pdf';
import type { StorageDriver } from '../storage/storage';
import {
  APPLICATION_HREF_PREFIX,
  type ApiApplicationsStore,
  type SubmittedApplicationRow,
} from './api-applications-store';
import { type CursorKind, createFeedCursors } from './api-cursors';
import { type ApiOperations, apiRoute } from './api-operations';
import { type ApiGuard, apiActor, problem } from './api-v1-plugin';
import { CHANGE_LOG_START } from './change-log-store';

export const API_APPLICATION_MESSAGES = {
  cursor: 'This cursor was not issued by this feed. Start without one, or use a `next_cursor`.',
  pdfNotReady: 'The application’s PDF could not be made now. Try again later.',
} as const;

export interface ApiApplicationsOptions {
  operations: ApiOperations;
  store: ApiApplicationsStore;
  /** The secret cursors are signed with (AUDIT_CHAIN_KEY); a fixed development one without it. */
  cursorSecret: string | undefined;
  model: FormModel;
  tenant: Pick<TenantConfig, 'coursework' | 'decisions'>;
  checklist: ChecklistService;
  documents: Pick<DocumentsStore, 'completedAnswers' | 'completedPdf'>;
  pdfs: Pick<ApplicationPdfs, 'ensure' | 'download'>;
  storage: Pick<StorageDriver, 'get'>;
  /** Each coursework grid updated after submit, by answer key: its latest answer. */
  currentCoursework: (id: string) => Promise<Record<string, string>>;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

const applicationHref = (id: string) => `${APPLICATION_HREF_PREFIX}${id}`;

const FEED_ERRORS = {
  400: { description: 'A parameter is wrong, or the cursor was not issued by this feed.' },
} as const;
const NOT_FOUND = { 404: { description: 'No submitted application has this id.' } } as const;
const BAD_INPUT = { 400: { description: 'A parameter or the body is wrong.' } } as const;

function checklistView(checklist: Checklist): ApiChecklist {
  return {
    missing: checklist.missing,
    items: checklist.items.map((item) => ({
      key: item.key,
      kind: item.kind,
      label: item.label,
      answer_key: item.answer_key,
      state: item.state,
      set_by: item.set_by
        ? item.set_by.type === 'applicant'
          ? 'applicant'
          : item.set_by.label
        : null,
      set_at: item.set_at,
    })),
  };
}

function subtotalsView(totals: Omit<CourseworkTotals, 'colleges' | 'excludedRepeats'>) {
  return {
    gpa: totals.gpa,
    grade_points: totals.gradePoints,
    graded_units: totals.gradedUnits,
    transferable_units: totals.transferableUnits,
    in_progress_units: totals.inProgressUnits,
    units_attempted: totals.unitsAttempted,
  };
}

/**
 * `/api/v1`'s applications and decisions: the change feed, one application in full with its
 * documents and PDF, the SIS id and checklist marks written back, and the decisions feed.
 */
export function apiApplications(options: ApiApplicationsOptions) {
  const { store, model, tenant, operations } = options;
  const cursors = createFeedCursors(options.cursorSecret);
  const decisionLabel = (code: string) =>
    tenant.decisions.codes.find((known) => known.code === code)?.label ?? code;

  /** The position a request's cursor names; a 400 problem naming `cursor` for any other. */
  function positionOf(kind: CursorKind, cursor: string | undefined, reply: FastifyReply) {
    if (cursor === undefined) return CHANGE_LOG_START;
    const position = cursors.read(kind, cursor);
    if (position === null) {
      void reply
        .status(400)
        .type(PROBLEM_CONTENT_TYPE)
        .send(
          problem(400, API_APPLICATION_MESSAGES.cursor, [
            { parameter: 'cursor', detail: `cursor: ${API_APPLICATION_MESSAGES.cursor}` },
          ]),
        );
      return null;
    }
    return position;
  }

  /** The client the guard admitted: who writes back, by its name. */
  function clientOf(request: FastifyRequest): { id: string; name: string } {
    const holder = request.apiClient;
    if (!holder) throw new Error('an operation of /api/v1 runs behind its guard');
    return { id: holder.id, name: holder.name };
  }

  async function submittedOr404(id: string): Promise<SubmittedApplicationRow> {
    const row = await store.submitted(id);
    if (!row) throw new HttpError(404, NOT_FOUND_MESSAGE);
    return row;
  }

  function answersOf(row: SubmittedApplicationRow, state: FormState): ApiApplication['answers'] {
    const seen = new Set<string>();
    const answers: ApiApplication['answers'] = [];
    for (const place of resolveModel(model, state)) {
      if (!place.visible || seen.has(place.key) || place.field.coursework) continue;
      seen.add(place.key);
      const value = row.answers[place.key];
      if (value === undefined || value === '') continue;
      const described = storesDesc(place.field) ? row.answers[`${place.key}${DESC_SUFFIX}`] : null;
      answers.push({
        code: place.key,
        label: place.instance
          ? `${place.field.label} (${place.instance.label})`
          : place.field.label,
        value,
        value_label: typeof described === 'string' && described !== '' ? described : null,
      });
    }
    return answers;
  }

  function courseworkOf(state: FormState): ApiApplication['coursework'] {
    const entered = enteredCoursework(model, state);
    if (entered.length === 0) return { colleges: [], totals: null };
    const totals = courseworkTotalsOf(entered, tenant.coursework);
    const excluded = new Set(
      totals.excludedRepeats.map((repeat) => `${repeat.college}/${repeat.term}/${repeat.course}`),
    );
    return {
      colleges: entered.map((grid, collegeIndex) => ({
        answer_key: grid.key,
        college: grid.college,
        system: grid.answer.system,
        terms: grid.answer.terms.map((term, termIndex) => ({
          term: termName(term),
          status: term.status,
          courses: term.courses.flatMap((course, courseIndex) =>
            isBlankCourse(course)
              ? []
              : [
                  {
                    subject: course.subject.trim(),
                    number: course.number.trim(),
                    title: course.title.trim(),
                    units: course.units.trim(),
                    grade: course.grade.trim(),
                    counted: !excluded.has(`${collegeIndex}/${termIndex}/${courseIndex}`),
                  },
                ],
          ),
        })),
      })),
      totals: {
        ...subtotalsView(totals),
        colleges: totals.colleges.map((college) => ({
          college: college.college,
          ...subtotalsView(college),
        })),
      },
    };
  }

  function fileLabels(state: FormState): Map<string, string> {
    const labels = new Map<string, string>();
    for (const place of resolveModel(model, state)) {
      if (place.field.widget !== 'file' || labels.has(place.key)) continue;
      labels.set(
        place.key,
        place.instance ? `${place.field.label} (${place.instance.label})` : place.field.label,
      );
    }
    return labels;
  }

  return async (api: FastifyInstance, guard: ApiGuard): Promise<void> => {
    apiRoute(
      api,
      operations,
      {
        operationId: 'listApplicationChanges',
        auditAlongside: true,
        method: 'GET',
        path: '/applications',
        tag: 'Applications',
        summary: 'Submitted applications changed since a cursor',
        description:
          'Each submitted application once, at its latest change, oldest change first. An application that changes again moves to the end. Keep the `next_cursor` and poll with it: no application is skipped or repeated before it changes again.',
        scope: 'applications:read',
        query: feedQuerySchema,
        responses: {
          200: { description: 'A page of the feed.', schema: applicationPageSchema },
          ...FEED_ERRORS,
        },
      },
      guard.for('applications:read'),
      async (request, reply) => {
        const after = positionOf('applications', request.query.cursor, reply);
        if (after === null) return reply;
        const read = await store.changedSincePage(after, request.query.limit);
        const rest: Omit<ApplicationPage, 'data'> = {
          next_cursor: cursors.issue('applications', {
            seq: read.lastSeq ?? after.seq,
            snapshot: read.snapshot,
          }),
          has_more: read.hasMore,
        };
        // The items are the database's JSON, passed through as `data`, the page's first key.
        reply.type('application/json');
        return `{"data":${read.itemsJson},${JSON.stringify(rest).slice(1)}`;
      },
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'getApplication',
        auditAlongside: true,
        method: 'GET',
        path: '/applications/{id}',
        tag: 'Applications',
        summary: 'One submitted application in full',
        description:
          'Every answer with its code and labels, the receipt, the checklist, the coursework and its totals, links to each document and to the PDF, and the decision and reply once released (for a token with `decisions:read`).',
        scope: 'applications:read',
        params: applicationIdParamsSchema,
        responses: {
          200: { description: 'The application.', schema: applicationSchema },
          ...BAD_INPUT,
          ...NOT_FOUND,
        },
      },
      guard.for('applications:read'),
      async (request) => {
        const row = await submittedOr404(request.params.id);
        const { id } = row;
        const updates = await options.currentCoursework(id);
        const state: FormState = {
          answers: row.answers,
          addAnother: row.addAnother,
          tabs: row.tabs,
          isLoggedIn: true,
        };
        const [checklist, documents, decision] = await Promise.all([
          options.checklist.of(id),
          options.documents.completedAnswers(id),
          request.apiClient?.scopes.includes('decisions:read')
            ? store.releasedDecision(id)
            : Promise.resolve(null),
        ]);
        const labels = fileLabels(state);
        const body: ApiApplication = {
          id,
          submitted_at: iso(row.submittedAt),
          changed_at: isoOrNull(row.changedAt),
          sis_id: row.sisId,
          answers: answersOf(row, state),
          receipt: row.receipt
            ? {
                confirmation_number: row.receipt.number,
                cycle: row.receipt.cycle,
                submitted_at: iso(row.receipt.submittedAt),
                fingerprint: row.receipt.fingerprint,
              }
            : null,
          checklist: checklistView(checklist ?? { items: [], missing: 0 }),
          ...(decision
            ? {
                decision: {
                  code: decision.code,
                  label: decisionLabel(decision.code),
                  released_at: iso(decision.releasedAt),
                  reply_deadline: isoOrNull(decision.replyDeadline),
                  reply: decision.reply,
                  replied_at: isoOrNull(decision.repliedAt),
                },
              }
            : {}),
          coursework: courseworkOf({ ...state, answers: { ...row.answers, ...updates } }),
          documents: Object.entries(documents)
            .filter(([key]) => labels.has(key))
            .map(([key, file]) => ({
              answer_key: key,
              label: labels.get(key) ?? key,
              file_name: file.file_name,
              href: `${applicationHref(id)}/documents/${key}`,
            })),
          pdf_href: `${applicationHref(id)}/pdf`,
        };
        return body;
      },
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'getApplicationDocument',
        method: 'GET',
        path: '/applications/{id}/documents/{key}',
        tag: 'Applications',
        summary: 'A document of an application, converted to PDF',
        scope: 'applications:read',
        params: documentParamsSchema,
        responses: {
          200: { description: 'The document as a PDF.', mediaType: 'application/pdf' },
          ...BAD_INPUT,
          404: { description: 'No submitted application, or no converted document, here.' },
        },
      },
      guard.for('applications:read'),
      async (request, reply) => {
        const row = await submittedOr404(request.params.id);
        const found = await options.documents.completedPdf(row.id, request.params.key);
        const pdf = found ? await options.storage.get(found.pdfKey) : null;
        if (!found || !pdf) throw new HttpError(404, NOT_FOUND_MESSAGE);
        return sendPdf(reply, pdf, pdfDownloadName(found.fileName));
      },
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'getApplicationPdf',
        method: 'GET',
        path: '/applications/{id}/pdf',
        tag: 'Applications',
        summary: 'The application as a PDF',
        description: 'Made when it is first asked for after a change; that may take seconds.',
        scope: 'applications:read',
        params: applicationIdParamsSchema,
        responses: {
          200: { description: 'The application as a PDF.', mediaType: 'application/pdf' },
          ...BAD_INPUT,
          ...NOT_FOUND,
          503: { description: 'The PDF could not be made now; `Retry-After` says when to retry.' },
        },
      },
      guard.for('applications:read'),
      async (request, reply) => {
        const row = await submittedOr404(request.params.id);
        const status = await options.pdfs.ensure(row.id);
        const found = status.status === 'COMPLETED' ? await options.pdfs.download(row.id) : null;
        if (!found)
          throw new HttpError(503, API_APPLICATION_MESSAGES.pdfNotReady, undefined, {
            'retry-after': '30',
          });
        return sendApplicationPdf(reply, found);
      },
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'setApplicationSisId',
        method: 'PUT',
        path: '/applications/{id}/sis-id',
        tag: 'Write-back',
        summary: 'Write back the student information system’s id',
        description:
          'Staff see it on the application and in the list, can search for it, and exports hold it.',
        scope: 'applications:write',
        params: applicationIdParamsSchema,
        body: sisIdBodySchema,
        responses: {
          200: { description: 'The id as stored.', schema: sisIdResultSchema },
          ...BAD_INPUT,
          ...NOT_FOUND,
        },
      },
      guard.for('applications:write'),
      async (request) => {
        const row = await submittedOr404(request.params.id);
        const actor = apiActor(request);
        const saved = await store.transaction(async (tx) => {
          const previous = await store.sisIdForUpdate(row.id, tx);
          const stored = await store.saveSisId(
            { id: row.id, sisId: request.body.sis_id, setByLabel: clientOf(request).name },
            tx,
          );
          if (previous !== stored.sisId)
            await request.audit.record(
              {
                actor,
                action: 'sis_id.set',
                applicationId: row.id,
                detail: { from: previous, to: stored.sisId },
              },
              tx,
            );
          return stored;
        });
        return {
          id: row.id,
          sis_id: saved.sisId,
          set_by: saved.setByLabel,
          set_at: iso(saved.setAt),
        };
      },
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'markChecklistItem',
        method: 'PUT',
        path: '/applications/{id}/checklist/{item}',
        tag: 'Write-back',
        summary: 'Mark a checklist item (a transcript the registrar received)',
        scope: 'applications:write',
        params: checklistItemParamsSchema,
        body: checklistMarkBodySchema,
        responses: {
          200: { description: 'The whole checklist after the mark.', schema: apiChecklistSchema },
          ...BAD_INPUT,
          404: { description: 'No submitted application, or no such item on it.' },
        },
      },
      guard.for('applications:write'),
      async (request) => {
        const row = await submittedOr404(request.params.id);
        const actor = apiActor(request);
        const client = clientOf(request);
        const updated = await options.checklist.mark(
          row.id,
          request.params.item,
          request.body.state,
          // A mark shows staff who set it: the client's name, said to be the API, not a person.
          { id: client.id, label: `${client.name} (API)` },
          (change, tx) =>
            request.audit.record(
              {
                actor,
                action: 'checklist.mark',
                applicationId: row.id,
                detail: { item: change.item, state: change.state, previous: change.previous },
              },
              tx,
            ),
        );
        return checklistView(updated);
      },
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'listDecisionEvents',
        method: 'GET',
        path: '/decisions',
        tag: 'Decisions',
        summary: 'Decisions released and applicants’ replies since a cursor',
        description:
          'One item per release and per reply, oldest first, with the decision as it stands now. A decision never appears before its release.',
        scope: 'decisions:read',
        query: feedQuerySchema,
        responses: {
          200: { description: 'A page of the feed.', schema: decisionPageSchema },
          ...FEED_ERRORS,
        },
      },
      guard.for('decisions:read'),
      async (request, reply) => {
        const after = positionOf('decisions', request.query.cursor, reply);
        if (after === null) return reply;
        const { limit } = request.query;
        const read = await store.decisionEventsSince(after, limit + 1, DECISION_EVENT_TYPES);
        const page = read.rows.slice(0, limit);
        const body: DecisionPage = {
          data: [...read.late, ...page].map((row) => {
            const replied = row.type === 'offer.replied';
            const reply = replied ? (row.data.reply as 'accepted' | 'declined') : row.reply;
            return {
              application_id: row.accountId,
              type: replied ? 'offer.replied' : 'decision.released',
              occurred_at: iso(row.occurredAt),
              code: row.code,
              label: decisionLabel(row.code),
              released_at: iso(row.releasedAt),
              reply_deadline: isoOrNull(row.replyDeadline),
              reply: reply ?? null,
              replied_at: isoOrNull(row.repliedAt),
            };
          }),
          next_cursor: cursors.issue('decisions', {
            seq: page.at(-1)?.seq ?? after.seq,
            snapshot: read.snapshot,
          }),
          has_more: read.rows.length > limit,
        };
        return body;
      },
    );
  };
}
