import type { FastifyRequest } from 'fastify';
import type { FormModel } from '../../shared/form/model';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { ApplicationPdfs } from '../application-pdf/application-pdfs';
import type { AuditTrail } from '../audit/audit-trail';
import type { ChecklistService } from '../checklist/checklist-service';
import type { Env } from '../config/env';
import type { AppDatabase } from '../db/database';
import type { JobQueue } from '../jobs/job-queue';
import type { Mailer } from '../mail/mailer';
import type { AccountRateLimiter } from '../rate-limit/rate-limiter';
import type { StorageDriver } from '../storage/storage';
import type { StaffSessions } from './staff-sessions';
import type { StaffStore } from './staff-store';

/** What every staff capability is built with; app.ts makes one and hands it to each plugin. */
export interface StaffContext {
  db: AppDatabase;
  env: Env;
  tenant: TenantConfig;
  model: FormModel;
  mailer: Mailer;
  limiter: AccountRateLimiter;
  sessions: StaffSessions;
  store: StaffStore;
  audit: AuditTrail;
  storage: StorageDriver;
  /** The application PDFs the console shows and exports. */
  pdfs: ApplicationPdfs;
  /** Where long staff work (a ZIP export) runs as a job. */
  queue: JobQueue;
  /** Each application's checklist and the list's missing counts. */
  checklist: ChecklistService;
}

/** Links in mail and on screen start at PUBLIC_URL, or where the request came to. */
export function siteUrl(env: Pick<Env, 'PUBLIC_URL'>, request: FastifyRequest): string {
  return env.PUBLIC_URL?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
}
