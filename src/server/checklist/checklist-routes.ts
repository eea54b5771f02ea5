import type { FastifyPluginAsync } from 'fastify';
import {
  type Checklist,
  checklistItemParams,
  checklistMarkSchema,
} from '../../shared/staff/application-api';
import { STAFF_API } from '../../shared/staff/staff-api';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import type { StaffContext } from '../staff/staff-context';
import { staffActor, staffOf } from '../staff/staff-sessions';
import { createChecklistStore } from './checklist-store';

/**
 * Staff mark an application's checklist items Awaiting, Received or Waived; each mark is in the
 * audit trail with the state it replaced. Also keeps the list's missing counts current: a sweep
 * recounts applications changed since its last run (docs/decisions/034-checklist.md).
 */
export const checklistRoutes: FastifyPluginAsync<StaffContext> = async (parent, context) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { db, sessions, audit, checklist } = context;
  const store = createChecklistStore(db);

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
          audit.record(
            {
              actor: staffActor(staff),
              action: 'checklist.mark',
              applicationId: id,
              detail: { item: change.item, state: change.state, previous: change.previous },
              ip: request.ip,
            },
            tx,
          ),
      );
      reply.header('cache-control', 'no-store');
      return updated;
    },
  );
};
