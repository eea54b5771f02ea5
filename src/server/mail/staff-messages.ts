import { ROLE_LABELS, type StaffRole } from '../../shared/staff/permissions';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { brandedMail } from './account-messages';
import type { MailMessage } from './mailer';

/** Mail to admissions staff about their own staff account. */
export function staffMessages(tenant: TenantConfig) {
  const build = brandedMail(tenant);
  const portal = `${tenant.partner_name} admissions portal`;
  return {
    invitation(to: string, role: StaffRole, link: string, hoursValid: number): MailMessage {
      return build(
        to,
        `You are invited to the ${portal}`,
        [
          `You have been invited to the ${portal} as ${ROLE_LABELS[role].toLowerCase()}.`,
          `Open the link below to choose a password and set up an authenticator app on your phone. The link works once and expires in ${hoursValid} hours.`,
          'If you did not expect this invitation, tell the admissions office and do not use the link.',
        ],
        { label: 'Accept the invitation', url: link },
      );
    },
    repeatedFailures(to: string, failures: number, signInUrl: string): MailMessage {
      return build(to, `Failed sign-in attempts on your ${portal} account`, [
        `There have been ${failures} failed attempts to sign in to your staff account (a wrong password or a wrong code) since you last signed in.`,
        'They do not lock your account: your password and your authenticator code still sign you in. You get this message at most once a day.',
        `If this was you, you can ignore this message. If not, someone may know your password: change it by asking an administrator for a new invitation, and tell your IT security office. Sign in at ${signInUrl}.`,
      ]);
    },
    recoveryCodeUsed(to: string, remaining: number): MailMessage {
      return build(to, `A recovery code was used on your ${portal} account`, [
        `Someone signed in to your staff account with one of your recovery codes. ${remaining} unused ${remaining === 1 ? 'code remains' : 'codes remain'}.`,
        'If this was not you, tell an administrator at once so they can disable the account.',
      ]);
    },
  };
}
