import type { FastifyPluginAsync } from 'fastify';
import {
  type Checklist,
  checklistItemParams,
  checklistMarkSchema,
} from '../../shared/staff/application-api';
import { STAFF_API } from '../../shared/staff/staff-api';
import type { Env } from '../config/env';
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
