import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  type BatchResult,
  batchDecisionSchema,
  batchReleaseSchema,
  type DecisionCodeView,
  decisionUrls,
  recordDecisionSchema,
  releaseDecisionSchema,
  type StaffDecision,
} from '../../shared/staff/decision-api';
import { applicationIdParams } from '../../shared/staff/staff-api';
import { listViewerOf } from '../applications-list/list-viewer';
import type { Env } from '../config/env';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffSessions, staffActor, staffOf } from '../staff/staff-sessions';
import type { DecisionService, StaffCaller } from './decision-service';

function callerOf(request: FastifyRequest): StaffCaller {
  const staff = staffOf(request);
  return {
    actor: staffActor(staff),
    recorder: { id: staff.id, label: staff.displayName || staff.email },
    ip: request.ip,
    viewer: listViewerOf(staff),
  };
}

export interface DecisionRoutesOptions {
  env: Pick<Env, 'RUN_JOBS'>;
  sessions: StaffSessions;
  decisions: DecisionService;
}

/**
 * Decisions in the console: the tenant's codes, one application's decision recorded, changed and
 * released (now or at a set time), and the same for every submitted application of a list's
 * filters. Servers that run jobs release scheduled decisions when they fall due.
 */
export const decisionRoutes: FastifyPluginAsync<DecisionRoutesOptions> = async (
  parent,
  context,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { sessions, decisions } = context;
  const manage = sessions.guard('decisions.manage');

  // Servers that only enqueue (RUN_JOBS=false) leave scheduled releases to those that run jobs.
  if (context.env.RUN_JOBS) {
    let releases: { stop(): Promise<void> } | null = null;
    app.addHook('onReady', async () => {
      releases = decisions.startReleases(app.log);
    });
    app.addHook('onClose', async () => {
      await releases?.stop();
    });
  }

  app.get(
    decisionUrls.codes,
    { onRequest: sessions.guard('applications.read') },
    async (): Promise<DecisionCodeView[]> => decisions.codes(),
  );

  app.put(
    decisionUrls.record(':applicationId'),
    { onRequest: manage, schema: { params: applicationIdParams, body: recordDecisionSchema } },
    async (request, reply): Promise<StaffDecision> => {
      reply.header('cache-control', 'no-store');
      return decisions.record(request.params.applicationId, request.body.code, callerOf(request));
    },
  );

  app.post(
    decisionUrls.release(':applicationId'),
    { onRequest: manage, schema: { params: applicationIdParams, body: releaseDecisionSchema } },
    async (request, reply): Promise<StaffDecision> => {
      reply.header('cache-control', 'no-store');
      return decisions.release(request.params.applicationId, request.body.at, callerOf(request));
    },
  );

  app.post(
    decisionUrls.batch,
    { onRequest: manage, schema: { body: batchDecisionSchema } },
    async (request, reply): Promise<BatchResult> => {
      reply.header('cache-control', 'no-store');
      return decisions.recordBatch(request.body.query, request.body.code, callerOf(request));
    },
  );

  app.post(
    decisionUrls.batchRelease,
    { onRequest: manage, schema: { body: batchReleaseSchema } },
    async (request, reply): Promise<BatchResult> => {
      reply.header('cache-control', 'no-store');
      return decisions.releaseBatch(request.body.query, request.body.at, callerOf(request));
    },
  );
};
