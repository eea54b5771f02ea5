import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { AuditTrail } from '../audit/audit-trail';
import type { AppDatabase } from '../db/database';
import type { JobQueue } from '../jobs/job-queue';
import type { JobLog } from '../jobs/job-runner';
import { brandedMail } from '../mail/account-messages';
import type { Mailer } from '../mail/mailer';
import type { StaffStore } from '../staff/staff-store';
import { PrivateNetworks } from './ssrf-guard';
import {
  createWebhookDelivery,
  type DisabledNotice,
  startWebhookDelivery,
} from './webhook-delivery';
import { createWebhookSender, type WebhookSender } from './webhook-sender';
import { createWebhooksService } from './webhooks-service';
import { createWebhooksStore } from './webhooks-store';

export interface WebhooksOptions {
  db: AppDatabase;
  queue: JobQueue;
  audit: Pick<AuditTrail, 'record'>;
  mailer: Mailer;
  staff: Pick<StaffStore, 'list'>;
  tenant: TenantConfig;
  log: JobLog;
  production: boolean;
  /** WEBHOOK_PRIVATE_NETWORKS: non-public networks production may reach, over http too. */
  privateNetworks?: readonly string[];
  runJobs: boolean;
  /** Where the console is, for the mail saying how to enable a subscription again. */
  publicUrl?: string;
  /** Replaces the HTTP sender (tests that need a production sender with a fake resolver). */
  send?: WebhookSender;
}

/** The mail every active administrator gets when a subscription is disabled. */
function disabledMail(tenant: TenantConfig, publicUrl: string | undefined) {
  const build = brandedMail(tenant);
  return (to: string, { subscription, reason }: DisabledNotice) =>
    build(
      to,
      `A webhook subscription of the ${tenant.partner_name} admissions portal was disabled`,
      [
        `The webhook subscription to ${subscription.url}${subscription.description ? ` (${subscription.description})` : ''} was disabled: its deliveries kept failing.`,
        reason,
        'Nothing more is sent to it until it is enabled again. Once the receiver works, enable it: the deliveries waiting go out, then every event since, in order.',
        `Enable it in the staff console under Webhooks${publicUrl ? ` (${publicUrl}/staff/webhooks)` : ''}, or on the server with: npm run webhooks -- enable ${subscription.id}`,
      ],
    );
}

/** The webhooks capability: subscriptions, and on servers that run jobs their delivery. */
export async function createWebhooks(options: WebhooksOptions) {
  const store = createWebhooksStore(options.db);
  const privateNetworks = new PrivateNetworks(options.privateNetworks ?? []);
  const mail = disabledMail(options.tenant, options.publicUrl);
  const delivery = createWebhookDelivery({
    store,
    send: options.send ?? createWebhookSender({ publicOnly: options.production, privateNetworks }),
    audit: options.audit,
    userAgent: `${options.tenant.partner_name} admissions portal webhooks`,
    notifyDisabled: async (notice) => {
      const admins = (await options.staff.list()).filter(
        (member) => member.role === 'admin' && !member.disabledAt,
      );
      for (const admin of admins) options.mailer.send(mail(admin.email, notice));
    },
  });
  const service = createWebhooksService({
    store,
    delivery,
    audit: options.audit,
    production: options.production,
    privateNetworks,
  });
  const runner = await startWebhookDelivery(
    options.queue,
    delivery,
    store,
    options.log,
    options.runJobs,
  );
  return { service, delivery, runner, store };
}
