import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  type AssignmentResult,
  assignListSchema,
  conflictIdParams,
  createConflictSchema,
  type Queue,
  queueQuerySchema,
  REVIEW_API,
  type ReaderConflict,
  type ReaderLoad,
  type ReassignedRead,
  type ReviewRules,
  readIdParams,
  reassignReadSchema,
  saveRulesSchema,
} from '../../shared/review/review-api';
import { listViewerOf } from '../applications-list/list-viewer';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffSessions, staffOf } from '../staff/staff-sessions';
import type { Assigner, AssignmentService } from './assignment-service';
import { auditRefusedChanges } from './refusal-audit';

export interface AssignmentRoutesOptions {
  sessions: StaffSessions;
  assignments: AssignmentService;
}

function assignerOf(request: FastifyRequest): Assigner {
  const staff = staffOf(request);
  return {
    label: staff.displayName || staff.email,
    audit: request.audit,
    viewer: listViewerOf(staff),
  };
}

/**
 * Reading assignments in the console: administrators deal a filtered list out to readers, move a
 * read to another reader, see readers' loads, and keep the rules and conflicts of interest; every
 * member who reads sees their own queue.
 */
export const assignmentRoutes: FastifyPluginAsync<AssignmentRoutesOptions> = async (
  parent,
  context,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { sessions, assignments } = context;
  auditRefusedChanges(app, new WeakSet());
  const assign = sessions.guard('reviews.assign');

  app.get(
    REVIEW_API.queue,
    { onRequest: sessions.guard('reviews.read'), schema: { querystring: queueQuerySchema } },
    async (request, reply): Promise<Queue> => {
      reply.header('cache-control', 'no-store');
      const { status } = request.query;
      const queue = await assignments.queue(staffOf(request).id, status);
      await request.audit.record({
        action: 'review.queue',
        detail: {
          status,
          rows: queue.items.length,
          open: queue.open_count,
          submitted: queue.submitted_count,
        },
      });
      return queue;
    },
  );

  // A whole list at once, like a decision for a list: only with a fresh second factor.
  app.post(
    REVIEW_API.assignments,
    {
      onRequest: sessions.guard('reviews.assign', { stepUp: true }),
      schema: { body: assignListSchema },
    },
    async (request, reply): Promise<AssignmentResult> => {
      reply.header('cache-control', 'no-store');
      return assignments.assignList(request.body, assignerOf(request));
    },
  );

  app.put(
    REVIEW_API.reassign(':readId'),
    { onRequest: assign, schema: { params: readIdParams, body: reassignReadSchema } },
    async (request, reply): Promise<ReassignedRead> => {
      reply.header('cache-control', 'no-store');
      return assignments.reassign(
        request.params.readId,
        request.body.reader_id,
        assignerOf(request),
      );
    },
  );

  app.get(
    REVIEW_API.readers,
    { onRequest: assign },
    async (_request, reply): Promise<ReaderLoad[]> => {
      reply.header('cache-control', 'no-store');
      return assignments.readers();
    },
  );

  app.get(
    REVIEW_API.rules,
    { onRequest: assign },
    async (_request, reply): Promise<ReviewRules> => {
      reply.header('cache-control', 'no-store');
      return assignments.rules();
    },
  );

  app.put(
    REVIEW_API.rules,
    { onRequest: assign, schema: { body: saveRulesSchema } },
    async (request, reply): Promise<ReviewRules> => {
      reply.header('cache-control', 'no-store');
      return assignments.saveRules(request.body.rules, assignerOf(request));
    },
  );

  app.get(
    REVIEW_API.conflicts,
    { onRequest: assign },
    async (_request, reply): Promise<ReaderConflict[]> => {
      reply.header('cache-control', 'no-store');
      return assignments.conflicts();
    },
  );

  app.post(
    REVIEW_API.conflicts,
    { onRequest: assign, schema: { body: createConflictSchema } },
    async (request, reply): Promise<ReaderConflict> => {
      reply.header('cache-control', 'no-store');
      const created = await assignments.addConflict(request.body, assignerOf(request));
      reply.code(201);
      return created;
    },
  );

  app.delete(
    `${REVIEW_API.conflicts}/:conflictId`,
    { onRequest: assign, schema: { params: conflictIdParams } },
    async (request, reply) => {
      await assignments.deleteConflict(request.params.conflictId, assignerOf(request));
      return reply.code(204).send();
    },
  );
};
