import { setImmediate } from 'node:timers/promises';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FormModel } from '../../shared/form/model';
import {
  APPLICATION_API_MESSAGES,
  EXPORT_COLUMNS_MAX,
  type ExportJob,
} from '../../shared/staff/application-api';
import type { ListViewer } from '../../shared/staff/application-list-api';
import {
  checkExportColumns,
  type ExportColumnsResponse,
  exportColumnsResponse,
  requirementColumn,
} from '../../shared/staff/export-columns';
import { STAFF_API } from '../../shared/staff/staff-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { ApplicationPdfs } from '../application-pdf/application-pdfs';
import { listViewerOf } from '../applications-list/list-viewer';
import type { ChecklistService } from '../checklist/checklist-service';
import type { Env } from '../config/env';
import { CSV_CONTENT_TYPE, csvStream } from '../http/csv-writer';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import type { JobQueue } from '../jobs/job-queue';
import { type Periodic, startPeriodic } from '../jobs/periodic';
import { type StaffSessions, staffOf } from '../staff/staff-sessions';

import { getStreamOf, type StorageDriver } from '../storage/storage';
import { COURSE_EXPORT_HEADER, courseRecords } from './course-rows';
import { type ChecklistsOf, csvRecord, needsChecklist, needsReview } from './csv-export';
import {
  EXPORT_QUERY_MAX_LENGTH,
  EXPORT_QUERY_MESSAGE,
  parseExportQuery,
  type RawQuery,
  rawQueryOf,
} from './export-query';
import { EXPORT_BATCH_SIZE, type ExportsStore, exportJobView } from './exports-store';
import { createZipExports, ZIP_EXPORT_MAX, ZIP_EXPORT_TOO_MANY_MESSAGE } from './zip-exports';

/** The exporting member, for reading's filters and columns (the blind rule). */
function viewerOf(request: FastifyRequest): ListViewer {
  return listViewerOf(staffOf(request));
}

export const EXPORT_ID_MESSAGE = 'An export id is a UUID.';
export const EXPORT_NOT_FOUND_MESSAGE = 'There is no such export of yours.';
export const EXPORT_COLUMNS_TOO_MANY_MESSAGE = `Choose at most ${EXPORT_COLUMNS_MAX} columns.`;
/** Applications whose courses are written before the server answers anyone else. */
const COURSES_BETWEEN_TURNS = 20;
/** The member's recent ZIP exports the console lists. */
const RECENT_JOBS = 20;

const exportQuerystring = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const zipBody = z.strictObject({
  query: z
    .string({ error: EXPORT_QUERY_MESSAGE })
    .max(EXPORT_QUERY_MAX_LENGTH, EXPORT_QUERY_MESSAGE),
});
const exportIdParams = z.strictObject({ id: z.uuid(EXPORT_ID_MESSAGE) });

const today = () => new Date().toISOString().slice(0, 10);
const EXPIRED_ZIP_CLEANUP_MS = 3_600_000;

export interface ExportRoutesOptions {
  env: Pick<Env, 'RUN_JOBS'>;
  tenant: TenantConfig;
  model: FormModel;
  sessions: StaffSessions;
  store: ExportsStore;
  storage: StorageDriver;
  /** The application PDFs a ZIP export gathers. */
  pdfs: ApplicationPdfs;
  /** Where a ZIP export runs as a job. */
  queue: JobQueue;
  checklist: Pick<ChecklistService, 'forApplications'>;
}

/**
 * Exports of the staff list as it is filtered and searched: a CSV of chosen columns, streamed,
 * a CSV of the coursework one course a record, and a ZIP of the application PDFs made by a job. Exporting needs 'exports.run' with a fresh
 * second factor; every export, and every download of a ZIP, is in the audit trail with the
 * filters it used and how many applications it held.
 */
export const exportRoutes: FastifyPluginAsync<ExportRoutesOptions> = async (parent, context) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { sessions, store } = context;
  const requirements = context.tenant.credit.requirements;
  const catalogue = exportColumnsResponse(context.model, requirements);
  const knownColumns = new Set(catalogue.columns.map((column) => column.id));
  const requirementColumns = new Set(
    requirements.map((requirement) => requirementColumn(requirement.id)),
  );
  const zips = createZipExports({
    store,
    storage: context.storage,
    pdfs: context.pdfs,
    queue: context.queue,
    log: parent.log,
  });
  await zips.register();
  parent.addHook('onReady', async () => {
    await zips.recover();
  });
  // An expired ZIP holds applicants' data nobody may download any more: it goes within the hour,
  // whether or not anyone exports again. Servers that only enqueue leave this to the others.
  if (context.env.RUN_JOBS) {
    let cleanup: Periodic | undefined;
    parent.addHook('onReady', async () => {
      cleanup = startPeriodic(
        parent.log,
        'expired ZIP exports could not be deleted',
        EXPIRED_ZIP_CLEANUP_MS,
        async () => {
          await zips.deleteExpired();
        },
      );
    });
    parent.addHook('onClose', async () => {
      await cleanup?.stop();
    });
  }
  const checklistsOf: ChecklistsOf = (ids) => context.checklist.forApplications(ids);
  const decisionLabels = new Map(
    context.tenant.decisions.codes.map((code) => [code.code, code.label]),
  );
  // A code the tenant has since removed is written as it is: the label is gone with it.
  const decisionLabel = (code: string) => decisionLabels.get(code) ?? code;

  function columnsOf(given: string | string[] | undefined): string[] {
    const checked = checkExportColumns(given, knownColumns);
    if (checked.ok) return checked.columns;
    const message =
      checked.reason === 'too_many'
        ? EXPORT_COLUMNS_TOO_MANY_MESSAGE
        : APPLICATION_API_MESSAGES.columns;
    const errors =
      checked.reason === 'unknown'
        ? Object.fromEntries(checked.unknown.map((column) => [`columns.${column}`, [message]]))
        : { columns: [message] };
    throw new HttpError(400, message, errors);
  }

  app.get(
    `${STAFF_API}/exports/columns`,
    { onRequest: sessions.guard('applications.read') },
    async (): Promise<ExportColumnsResponse> => catalogue,
  );

  app.get(
    `${STAFF_API}/exports/applications.csv`,
    { onRequest: sessions.guard('exports.run'), schema: { querystring: exportQuerystring } },
    async (request, reply) => {
      const { columns: givenColumns, ...listParams } = request.query as RawQuery;
      const query = parseExportQuery(listParams, context.tenant, viewerOf(request));
      const columns = columnsOf(givenColumns);
      const viewer = viewerOf(request);
      const ids = await store.matchingIds({ ...query.request, viewer });
      // Recorded before anything leaves: an export that fails half-way is still on the record.
      await request.audit.record({
        action: 'applications.export_csv',
        detail: {
          filters: query.filters,
          q: query.request.q,
          sort: query.request.sort,
          direction: query.request.direction,
          columns,
          rows: ids.length,
        },
      });
      const withChecklist = needsChecklist(columns);
      const withReview = needsReview(columns);
      async function* records() {
        for (let start = 0; start < ids.length; start += EXPORT_BATCH_SIZE) {
          const batch = await store.applications(ids.slice(start, start + EXPORT_BATCH_SIZE));
          const checklists = withChecklist ? await checklistsOf(batch.map((one) => one.id)) : null;
          const reviews = withReview
            ? await store.reviewColumns(
                batch.map((one) => one.id),
                viewer,
              )
            : null;
          for (const application of batch) {
            yield csvRecord(
              columns,
              { ...application, review: reviews?.get(application.id) },
              checklists?.get(application.id),
              decisionLabel,
              requirementColumns,
            );
          }
        }
      }
      return reply
        .header('content-type', CSV_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="applications-${today()}.csv"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(csvStream(columns, records()));
    },
  );

  // One record per course of the selection's coursework, as it stands now (updates after submit
  // included); the same query, permission and audit as the CSV of applications.
  app.get(
    `${STAFF_API}/exports/courses.csv`,
    { onRequest: sessions.guard('exports.run'), schema: { querystring: exportQuerystring } },
    async (request, reply) => {
      const query = parseExportQuery(request.query as RawQuery, context.tenant, viewerOf(request));
      const ids = await store.matchingIds({ ...query.request, viewer: viewerOf(request) });
      await request.audit.record({
        action: 'applications.export_courses_csv',
        detail: {
          filters: query.filters,
          q: query.request.q,
          sort: query.request.sort,
          direction: query.request.direction,
          rows: ids.length,
        },
      });
      const rules = context.tenant.coursework;
      async function* records() {
        for (let start = 0; start < ids.length; start += EXPORT_BATCH_SIZE) {
          const batch = await store.courseworkSources(ids.slice(start, start + EXPORT_BATCH_SIZE));
          for (const [index, source] of batch.entries()) {
            // About 2 ms an application: other requests get a turn between a few of them.
            if (index > 0 && index % COURSES_BETWEEN_TURNS === 0) await setImmediate();
            yield* courseRecords(context.model, rules, source);
          }
        }
      }
      return reply
        .header('content-type', CSV_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="courses-${today()}.csv"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(csvStream(COURSE_EXPORT_HEADER, records()));
    },
  );

  app.post(
    `${STAFF_API}/exports/zip`,
    { onRequest: sessions.guard('exports.run'), schema: { body: zipBody } },
    async (request): Promise<ExportJob> => {
      const staff = staffOf(request);
      const query = parseExportQuery(rawQueryOf(request.body.query), context.tenant);
      const ids = await store.matchingIds(query.request, ZIP_EXPORT_MAX + 1);
      if (ids.length === 0) throw new HttpError(400, APPLICATION_API_MESSAGES.exportEmpty);
      if (ids.length > ZIP_EXPORT_MAX) throw new HttpError(400, ZIP_EXPORT_TOO_MANY_MESSAGE);
      await zips.deleteExpired();
      const job = await store.createJob({
        staffId: staff.id,
        query: query.queryString,
        total: ids.length,
      });
      await request.audit.record({
        action: 'applications.export_zip',
        detail: {
          export_id: job.id,
          query: query.queryString,
          filters: query.filters,
          q: query.request.q,
          rows: ids.length,
        },
      });
      await zips.enqueue(job.id);
      return exportJobView(job);
    },
  );

  app.get(
    `${STAFF_API}/exports/zip`,
    { onRequest: sessions.guard('applications.read') },
    async (request): Promise<ExportJob[]> => {
      await zips.deleteExpired();
      return (await store.jobsOf(staffOf(request).id, RECENT_JOBS)).map(exportJobView);
    },
  );

  app.get(
    `${STAFF_API}/exports/zip/:id`,
    { onRequest: sessions.guard('applications.read'), schema: { params: exportIdParams } },
    async (request): Promise<ExportJob> => {
      const job = await store.jobOf(request.params.id, staffOf(request).id);
      if (!job) throw new HttpError(404, EXPORT_NOT_FOUND_MESSAGE);
      return exportJobView(job);
    },
  );

  app.get(
    `${STAFF_API}/exports/zip/:id/download`,
    // The export was allowed with a fresh second factor when it was asked for; the file is only
    // its member's and expires. Asking again would turn a plain link into a stored ZIP of
    // hundreds of megabytes held in the browser's memory.
    {
      onRequest: sessions.guard('exports.run', { stepUp: false }),
      schema: { params: exportIdParams },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      const job = await store.jobOf(request.params.id, staff.id);
      if (!job) throw new HttpError(404, EXPORT_NOT_FOUND_MESSAGE);
      if (job.status === 'queued' || job.status === 'running') {
        throw new HttpError(409, APPLICATION_API_MESSAGES.exportNotReady);
      }
      if (job.status === 'failed') {
        throw new HttpError(409, job.message ?? APPLICATION_API_MESSAGES.exportExpired);
      }
      if (!job.expiresAt || job.expiresAt.getTime() <= Date.now()) {
        await zips.deleteExpired();
        throw new HttpError(410, APPLICATION_API_MESSAGES.exportExpired);
      }
      const zip = job.storageKey ? await getStreamOf(context.storage, job.storageKey) : null;
      if (!zip) throw new HttpError(410, APPLICATION_API_MESSAGES.exportExpired);
      await request.audit.record({
        action: 'applications.export_zip_download',
        detail: { export_id: job.id, query: job.query, rows: job.done },
      });
      const day = job.createdAt.toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="applications-${day}.zip"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .headers(job.byteSize === null ? {} : { 'content-length': String(job.byteSize) })
        .send(zip);
    },
  );
};
