import type { Receipt } from '../../shared/api/status';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { brandedMail } from '../mail/account-messages';
import type { MailMessage } from '../mail/mailer';

const readableTime = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

/** "Friday, May 1, 2026 at 3:04 PM UTC": the submit time as people read it. */
export function readableSubmitTime(submittedAt: string): string {
  return readableTime.format(new Date(submittedAt));
}

/** The receipt mailed at submit, in the university's colours, plain text and HTML alike. */
export function receiptMessage(
  tenant: TenantConfig,
  to: string,
  receipt: Receipt,
  completionUrl: string,
): MailMessage {
  return brandedMail(tenant)(
    to,
    `Your application to ${tenant.partner_name} is submitted: ${receipt.number}`,
    [
      `Your application to ${tenant.partner_name} is submitted. Keep this email as your receipt.`,
      `Confirmation number: ${receipt.number}. Give it when you call or write to us about your application.`,
      `Submitted: ${readableSubmitTime(receipt.submitted_at)} (${receipt.submitted_at}).`,
      `Fingerprint (SHA-256) of the answers and documents you submitted: ${receipt.fingerprint}. The admissions office reads exactly what you submitted, and this fingerprint proves it.`,
    ],
    { label: 'See your application status', url: completionUrl },
  );
}
