import type { FastifyPluginAsync } from 'fastify';
import type { FormModel } from '../../shared/form/model';
import {
  type Checklist,
  checklistItemParams,
  checklistMarkSchema,
} from '../../shared/staff/application-api';
import type { ListViewer } from '../../shared/staff/application-list-api';
import {
  BULK_CHECKLIST_API,
  BULK_CHECKLIST_MAX,
  BULK_CHECKLIST_MESSAGES,
  type BulkChecklistItem,
  type BulkChecklistRequest,
  type BulkChecklistResult,
  bulkChecklistItems,
  bulkChecklistSchema,
} from '../../shared/staff/bulk-checklist';
import { STAFF_API } from '../../shared/staff/staff-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { parseSelectionQueryString } from '../applications-list/application-selection';
import { selectedApplicationIds } from '../applications-list/application-selection-store';
import { listViewerOf } from '../applications-list/list-viewer';
import type { Env } from '../config/env';
import type { AppDatabase } from '../db/database';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import type { StaffSessions } from '../staff/staff-sessions';
import { staffOf } from '../staff/staff-sessions';
import type { ChecklistService } from './checklist-service';
import type { ChecklistStore } from './checklist-store';

export interface ChecklistRoutesOptions {
  env: Pick<Env, 'RUN_JOBS'>;
  sessions: StaffSessions;
  store: ChecklistStore;
  checklist: ChecklistService;
  /** For bulk marks: the list's selections, and the items a bulk mark may name. */
  db: AppDatabase;
  model: FormModel;
  tenant: Pick<TenantConfig, 'credit' | 'checklist_items'>;
}

/**
 * Staff mark an application's checklist items Awaiting, Received or Waived; each mark is in the
 * audit trail with the state it replaced. Also keeps the list's missing counts current: a sweep
 * recounts applications changed since its last run (docs/decisions/034-checklist.md).
 */
export const checklistRoutes: FastifyPluginAsync<ChecklistRoutesOptions> = async (
  parent,
  context,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { sessions, store, checklist } = context;

  // Servers that only enqueue (RUN_JOBS=false) leave the recounting to those that run jobs.
  if (context.env.RUN_JOBS) {
    let sweep: { stop(): Promise<void> } | null = null;
    app.addHook('onReady', async () => {
      sweep = checklist.startSweep(app.log);
    });
    app.addHook('onClose', async () => {
      await sweep?.stop();
    });
  }

  const bulkItems = bulkChecklistItems(context.model, context.tenant.checklist_items ?? []);

  app.get(
    BULK_CHECKLIST_API.items,
    { onRequest: sessions.guard('checklist.mark') },
    async (): Promise<{ items: BulkChecklistItem[] }> => ({ items: bulkItems }),
  );

  /** The applications a bulk mark names, or a 400 for a query that cannot select. */
  async function selected(body: BulkChecklistRequest, viewer: ListViewer): Promise<string[]> {
    if (body.application_ids) return store.existingApplications(body.application_ids);
    const selection = parseSelectionQueryString(body.query ?? '', context.tenant, viewer);
    return selectedApplicationIds(context.db, selection.request, BULK_CHECKLIST_MAX + 1);
  }

  app.post(
    BULK_CHECKLIST_API.mark,
    { onRequest: sessions.guard('checklist.mark'), schema: { body: bulkChecklistSchema } },
    async (request, reply): Promise<BulkChecklistResult> => {
      const { body } = request;
      const staff = staffOf(request);
      const ids = await selected(body, listViewerOf(staff));
      if (ids.length > BULK_CHECKLIST_MAX) {
        throw new HttpError(422, BULK_CHECKLIST_MESSAGES.tooMany, {
          query: [BULK_CHECKLIST_MESSAGES.tooMany],
        });
      }
      // The member confirmed a number: a list that moved since is theirs to look at again.
      if (ids.length !== body.expected_count) {
        const message = BULK_CHECKLIST_MESSAGES.countChanged(ids.length, body.expected_count);
        throw new HttpError(409, message, { expected_count: [message] });
      }
      const state = body.received ? 'received' : 'awaiting';
      const outcome = await checklist.markMany(
        ids,
        body.item_key,
        state,
        { id: staff.id, label: staff.displayName || staff.email },
        (done, tx) =>
          request.audit.record(
            {
              action: 'checklist.bulk_mark',
              detail: {
                item: body.item_key,
                state,
                ...(body.query === undefined
                  ? { selected: ids.length }
                  : { query: body.query, matched: ids.length }),
                ...done,
                // Which applications changed: the trail answers for each of them.
                applications: done.marked_ids,
              },
            },
            tx,
          ),
      );
      reply.header('cache-control', 'no-store');
      return {
        marked: outcome.marked,
        already: outcome.already,
        not_applicable: outcome.not_applicable,
      };
    },
  );

  app.put(
    `${STAFF_API}/applications/:applicationId/checklist/:item`,
    {
      onRequest: sessions.guard('checklist.mark'),
      schema: { params: checklistItemParams, body: checklistMarkSchema },
    },
    async (request, reply): Promise<Checklist> => {
      const { applicationId: id, item } = request.params;
      const staff = staffOf(request);
      if (!(await store.applicationExists(id))) throw new HttpError(404, NOT_FOUND_MESSAGE);
      const updated = await checklist.mark(
        id,
        item,
        request.body.state,
        { id: staff.id, label: staff.displayName || staff.email },
        (change, tx) =>
          request.audit.record(
            {
              action: 'checklist.mark',
              applicationId: id,
              detail: { item: change.item, state: change.state, previous: change.previous },
            },
            tx,
          ),
      );
      reply.header('cache-control', 'no-store');
      return updated;
    },
  );
};
