import type { ApplicantStatus, StatusItem } from '../../shared/api/status';
import { isAnswered } from '../../shared/form/conditions';
import type { FormModel } from '../../shared/form/model';
import { COMPLETION_ROUTE } from '../../shared/routes';
import type { Checklist, ChecklistItem } from '../../shared/staff/application-api';
import { CHECKLIST_LABELS } from '../../shared/staff/checklist';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { type ChecklistService, createChecklistService } from '../checklist/checklist-service';
import type { AppDatabase } from '../db/database';
import type { JobLog } from '../jobs/job-runner';
import { startPeriodic } from '../jobs/periodic';
import { brandedMail } from '../mail/account-messages';
import type { Mailer, MailMessage } from '../mail/mailer';
import { createApplicantStatusStore, type SubmittedApplication } from './applicant-status-store';

export type StatusTenant = Pick<
  TenantConfig,
  'transcript_email' | 'help_email' | 'urls' | 'missing_item_reminder_days'
>;

export const STATUS_HOW = {
  upload: 'Upload it here: choose the file below.',
  document: (helpEmail: string) =>
    `Contact the admissions office at ${helpEmail} about this document.`,
  transcript: (college: string, transcriptEmail: string) =>
    `Ask ${college} to send your official transcript to ${transcriptEmail}.`,
  fee: (feeUrl: string) => `Pay the application fee at ${feeUrl}.`,
  feeWaiver: 'The admissions office reviews your fee waiver request; you need not do anything.',
  office: 'The admissions office will contact you about this.',
} as const;

/**
 * Whether the applicant had this document in the application they submitted: its answer was
 * given (the answer of a file question is set only once its upload converted), or the receipt
 * fingerprinted a document for it.
 */
function hadDocumentAtSubmit(application: SubmittedApplication, answerKey: string): boolean {
  return (
    isAnswered(application.answers[answerKey]) || application.receiptDocuments.includes(answerKey)
  );
}

/**
 * A submitted applicant may still send a document the checklist awaits, but never replace one
 * they submitted: the submitted application and its fingerprint stay as they were.
 */
export function mayUploadAfterSubmit(
  item: Pick<ChecklistItem, 'kind' | 'state' | 'answer_key'>,
  application: SubmittedApplication,
): boolean {
  return (
    application.submitted &&
    item.kind === 'document' &&
    item.state === 'awaiting' &&
    item.answer_key !== null &&
    !hadDocumentAtSubmit(application, item.answer_key)
  );
}

const transcriptPrefix = CHECKLIST_LABELS.transcript('');

/** One checklist item as the applicant sees it: who provides it and what they can do now. */
export function statusItemOf(
  item: ChecklistItem,
  application: SubmittedApplication,
  tenant: StatusTenant,
): StatusItem {
  const awaiting = item.state === 'awaiting';
  const base = { key: item.key, label: item.label, state: item.state };
  switch (item.kind) {
    case 'document': {
      const uploadable = mayUploadAfterSubmit(item, application);
      return {
        ...base,
        provider: 'applicant',
        upload_answer_key: uploadable ? item.answer_key : null,
        how: !awaiting
          ? ''
          : uploadable
            ? STATUS_HOW.upload
            : STATUS_HOW.document(tenant.help_email),
      };
    }
    case 'transcript': {
      // The label names the college as the applicant wrote it; the derivation keeps no other copy.
      const college = item.label.startsWith(transcriptPrefix)
        ? item.label.slice(transcriptPrefix.length)
        : item.label;
      return {
        ...base,
        provider: 'college',
        upload_answer_key: null,
        how: awaiting ? STATUS_HOW.transcript(college, tenant.transcript_email) : '',
      };
    }
    case 'fee': {
      // A waiver asked for is the office's to grant; only the fee itself is the applicant's to pay.
      const waiver = item.label === CHECKLIST_LABELS.feeWaiver;
      return {
        ...base,
        provider: waiver ? 'office' : 'applicant',
        upload_answer_key: null,
        how: !awaiting
          ? ''
          : waiver
            ? STATUS_HOW.feeWaiver
            : STATUS_HOW.fee(tenant.urls.application_fee),
      };
    }
    case 'tenant':
      return {
        ...base,
        provider: 'office',
        upload_answer_key: null,
        how: awaiting ? STATUS_HOW.office : '',
      };
  }
}

export function applicantStatusOf(
  checklist: Checklist,
  application: SubmittedApplication,
  tenant: StatusTenant,
): ApplicantStatus {
  return {
    submitted: application.submitted,
    items: checklist.items.map((item) => statusItemOf(item, application, tenant)),
    missing: checklist.missing,
  };
}

/** The items a reminder names: awaited, and only the applicant can provide them. */
export function itemsToRemind(status: ApplicantStatus): StatusItem[] {
  return status.items.filter((item) => item.state === 'awaiting' && item.provider === 'applicant');
}

export function missingItemReminder(
  tenant: TenantConfig,
  to: string,
  items: readonly StatusItem[],
  statusUrl: string,
): MailMessage {
  return brandedMail(tenant)(
    to,
    `Your ${tenant.partner_name} application is missing ${items.length === 1 ? 'an item' : 'items'}`,
    [
      `Thank you for applying to ${tenant.partner_name}. We are still waiting for ${items.length === 1 ? 'this item' : 'these items'} from you before we can review your application:`,
      ...items.map((item) => `- ${item.label}: ${item.how}`),
      'Your application page shows what we have received and lets you upload documents.',
    ],
    { label: 'See your application status', url: statusUrl },
  );
}

/** Receipts a sweep reads at once; each is derived and claimed on its own. */
const REMINDER_BATCH = 100;
export const REMINDER_SWEEP_INTERVAL_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface ApplicantStatusService {
  /** Null when the account has no application. */
  statusOf(accountId: string): Promise<ApplicantStatus | null>;
  /**
   * Sends the missing-item reminder to every applicant submitted at least the tenant's number of
   * days before `now` who must still provide an item, once per application across servers.
   * Returns how many were sent.
   */
  sendDueReminders(now: Date): Promise<number>;
  /** Sweeps now and then every `intervalMs`, until `stop`. */
  startReminderSweep(log: JobLog, intervalMs?: number): { stop(): Promise<void> };
}

export function createApplicantStatusService(options: {
  db: AppDatabase;
  model: FormModel;
  tenant: TenantConfig;
  mailer: Mailer;
  /** Where the portal is reached: the reminder links to its completion page. */
  publicUrl: string;
  checklist?: ChecklistService;
}): ApplicantStatusService {
  const { tenant } = options;
  const store = createApplicantStatusStore(options.db);
  const checklist =
    options.checklist ?? createChecklistService({ db: options.db, model: options.model, tenant });
  const statusUrl = `${options.publicUrl.replace(/\/$/, '')}${COMPLETION_ROUTE}`;

  const service: ApplicantStatusService = {
    async statusOf(accountId) {
      const [application, list] = await Promise.all([
        store.submittedApplication(accountId),
        checklist.of(accountId),
      ]);
      if (!application || !list) return null;
      return applicantStatusOf(list, application, tenant);
    },

    async sendDueReminders(now) {
      const submittedBefore = new Date(now.getTime() - tenant.missing_item_reminder_days * DAY_MS);
      let sent = 0;
      let after: string | null = null;
      for (;;) {
        const candidates = await store.reminderCandidates({
          submittedBefore,
          after,
          limit: REMINDER_BATCH,
        });
        for (const candidate of candidates) {
          const status = await service.statusOf(candidate.accountId);
          const items = status?.submitted ? itemsToRemind(status) : [];
          // Nothing of the applicant's is missing now: looked at again next time, in case staff
          // ask for an item again.
          if (items.length === 0) continue;
          if (!(await store.claimReminder(candidate.accountId, now))) continue;
          options.mailer.send(missingItemReminder(tenant, candidate.email, items, statusUrl));
          sent += 1;
        }
        if (candidates.length < REMINDER_BATCH) return sent;
        after = candidates[candidates.length - 1]?.accountId ?? null;
      }
    },

    startReminderSweep(log, intervalMs = REMINDER_SWEEP_INTERVAL_MS) {
      return startPeriodic(log, 'sending missing-item reminders failed', intervalMs, async () => {
        await service.sendDueReminders(new Date());
      });
    },
  };
  return service;
}

/**
 * The check the document routes make before a submitted applicant's upload: the key is a document
 * item of their checklist, awaited, and was not answered at submit. Document items follow from
 * the model and the answers alone, so no tenant items are needed here.
 */
export function createLateUploads(options: { db: AppDatabase; model: FormModel }) {
  const store = createApplicantStatusStore(options.db);
  const checklist = createChecklistService({
    db: options.db,
    model: options.model,
    tenant: { checklist_items: [] },
  });
  return {
    async allows(accountId: string, answerKey: string): Promise<boolean> {
      const [application, list, document] = await Promise.all([
        store.submittedApplication(accountId),
        checklist.of(accountId),
        store.documentStatus(accountId, answerKey),
      ]);
      const item = list?.items.find(
        (entry) => entry.kind === 'document' && entry.answer_key === answerKey,
      );
      // A document sent after submit is never replaced, even when staff ask for it again: what
      // the office received stays. Only a conversion that failed may be tried again.
      const replaceable = document === null || document === 'FAILED';
      return Boolean(application && item && replaceable && mayUploadAfterSubmit(item, application));
    },
  };
}

export type LateUploads = ReturnType<typeof createLateUploads>;
