import type { FastifyPluginAsync } from 'fastify';
import { type ApplicantStatus, STATUS_URL } from '../../shared/api/status';
import type { FormModel } from '../../shared/form/model';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { Sessions } from '../accounts/sessions';
import type { ChecklistService } from '../checklist/checklist-service';
import type { Env } from '../config/env';
import type { AppDatabase } from '../db/database';
import type { Mailer } from '../mail/mailer';
import { createApplicantStatusService } from './applicant-status';

export interface ApplicantStatusRoutesOptions {
  db: AppDatabase;
  env: Pick<Env, 'RUN_JOBS' | 'PUBLIC_URL' | 'PORT'>;
  tenant: TenantConfig;
  model: FormModel;
  sessions: Sessions;
  mailer: Mailer;
  checklist: ChecklistService;
}

/**
 * The submitted applicant's checklist with what they can still do about each missing item, and
 * the reminder of items only they can provide, sent once some days after submit.
 */
export const applicantStatusRoutes: FastifyPluginAsync<ApplicantStatusRoutesOptions> = async (
  app,
  options,
) => {
  const { env } = options;
  const status = createApplicantStatusService({
    db: options.db,
    model: options.model,
    tenant: options.tenant,
    mailer: options.mailer,
    checklist: options.checklist,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
  });

  // Servers that only enqueue (RUN_JOBS=false) leave the reminders to those that run jobs.
  if (env.RUN_JOBS) {
    let sweep: { stop(): Promise<void> } | null = null;
    app.addHook('onReady', async () => {
      sweep = status.startReminderSweep(app.log);
    });
    app.addHook('onClose', async () => {
      await sweep?.stop();
    });
  }

  app.get(
    STATUS_URL,
    { onRequest: options.sessions.requireSession.bind(options.sessions) },
    async (request, reply): Promise<ApplicantStatus> => {
      reply.header('cache-control', 'no-store');
      return (
        (await status.statusOf(request.accountId)) ?? { submitted: false, items: [], missing: 0 }
      );
    },
  );
};
