import { z } from 'zod';
import { email, MESSAGES, newPassword, PASSWORD_MAX_LENGTH } from '../accounts/account-forms';
import { type Permission, STAFF_ROLES, type StaffRole } from './permissions';

/*
 * The staff console's calls: pages under /staff, JSON under /staff/api/. The browser checks a
 * form with these schemas and the server parses the same body with them again.
 */

export { STAFF_API } from '../routes';
export const STAFF_HOME = '/staff';
export const STAFF_SIGN_IN_PAGE = '/staff/sign-in';
export const STAFF_INVITATION_PAGE = '/staff/invitation';
export const SSO_START_PATH = '/staff/sso/start';
export const SSO_CALLBACK_PATH = '/staff/sso/callback';

export const STAFF_MESSAGES = {
  codeInvalid: 'Enter the 6-digit code from your authenticator app.',
  recoveryCodeInvalid: 'Enter one of your recovery codes, for example ABCDE-FGHIJ.',
  roleInvalid: `Choose a role: ${STAFF_ROLES.join(' or ')}.`,
  invitationInvalid: 'This invitation link is not valid. Ask an administrator for a new one.',
  linkDaysInvalid: 'A read-only link works for 1 to 30 days.',
} as const;

const totpCode = z
  .string({ error: STAFF_MESSAGES.codeInvalid })
  .trim()
  .regex(/^\d{6}$/, STAFF_MESSAGES.codeInvalid);

/** Recovery codes are ten letters and digits in two groups; case and the dash do not matter. */
const recoveryCode = z
  .string({ error: STAFF_MESSAGES.recoveryCodeInvalid })
  .max(40, STAFF_MESSAGES.recoveryCodeInvalid)
  .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{10}$/, STAFF_MESSAGES.recoveryCodeInvalid));

const invitationToken = z
  .string({ error: STAFF_MESSAGES.invitationInvalid })
  .regex(/^[A-Za-z0-9_-]{22,128}$/, STAFF_MESSAGES.invitationInvalid);

export const staffSignInSchema = z.strictObject({
  email: email(MESSAGES.loginEmailInvalid),
  password: z
    .string({ error: MESSAGES.passwordRequired })
    .min(1, MESSAGES.passwordRequired)
    .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordRequired),
});

export const totpCodeSchema = z.strictObject({ code: totpCode });
export const recoveryCodeSchema = z.strictObject({ code: recoveryCode });

export const invitationCheckSchema = z.strictObject({ token: invitationToken });

export const invitationAcceptSchema = z
  .strictObject({
    token: invitationToken,
    email: email(MESSAGES.emailInvalid),
    password: newPassword,
    confirm_password: z.string({ error: MESSAGES.passwordsMustMatch }).max(PASSWORD_MAX_LENGTH),
  })
  .superRefine((form, context) => {
    if (form.password !== form.confirm_password) {
      context.addIssue({
        code: 'custom',
        path: ['confirm_password'],
        message: MESSAGES.passwordsMustMatch,
      });
    }
  });

const role = z.enum(STAFF_ROLES, { error: STAFF_MESSAGES.roleInvalid });

export const inviteStaffSchema = z.strictObject({
  email: email(MESSAGES.emailInvalid),
  role,
  display_name: z.string().trim().max(120).optional(),
});
export const changeRoleSchema = z.strictObject({ role });

export const staffIdParams = z.strictObject({ staffId: z.uuid('Not a staff member id.') });
export const applicationIdParams = z.strictObject({
  applicationId: z.uuid('Not an application id.'),
});
export const serviceLinkParams = applicationIdParams.extend({
  linkId: z.uuid('Not a link id.'),
});

export const createServiceLinkSchema = z.strictObject({
  days: z
    .number({ error: STAFF_MESSAGES.linkDaysInvalid })
    .int(STAFF_MESSAGES.linkDaysInvalid)
    .min(1, STAFF_MESSAGES.linkDaysInvalid)
    .max(30, STAFF_MESSAGES.linkDaysInvalid),
});

export const findApplicationsQuery = z.strictObject({
  email: email(MESSAGES.emailInvalid),
});

export type StaffSignInForm = z.infer<typeof staffSignInSchema>;
export type InvitationAcceptForm = z.infer<typeof invitationAcceptSchema>;
export type InviteStaffForm = z.infer<typeof inviteStaffSchema>;

/** Where a sign-in stands after a step: enrol an authenticator, enter a code, or done. */
export type SignInStage = 'enrol' | 'second_factor' | 'signed_in';
export interface SignInStepResponse {
  next: SignInStage;
}

export interface StaffOptionsResponse {
  /** The university's identity provider, when single sign-on is configured. */
  sso: { label: string } | null;
}

export interface StaffMeResponse {
  id: string;
  email: string;
  display_name: string;
  role: StaffRole;
  permissions: Permission[];
  method: 'password' | 'oidc';
  /** When the last fresh second factor stops counting for step-up; null if none is fresh. */
  step_up_until: string | null;
  /** Whether a code from an authenticator can be used for step-up (else the provider's sign-in). */
  has_authenticator: boolean;
  idle_minutes: number;
}

export interface EnrolmentStartResponse {
  secret: string;
  otpauth_uri: string;
  /** An SVG image of the QR code, as a data: URL. */
  qr_data_url: string;
}

export interface RecoveryCodesResponse {
  recovery_codes: string[];
}

export interface StaffMemberSummary {
  id: string;
  email: string;
  display_name: string;
  role: StaffRole;
  status: 'invited' | 'active' | 'disabled';
  method: 'password' | 'oidc' | null;
  last_sign_in_at: string | null;
  created_at: string;
}

export interface InviteStaffResponse {
  member: StaffMemberSummary;
  /** The one-time link, also mailed to the invitee. */
  link: string;
  expires_at: string;
}

export interface ApplicationSummary {
  id: string;
  email: string;
  status: 'started' | 'submitted';
  submitted_at: string | null;
}

export interface ServiceLinkSummary {
  id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  created_by: string | null;
  state: 'live' | 'expired' | 'revoked';
}

export interface CreatedServiceLink extends ServiceLinkSummary {
  /** The link itself; shown once, never stored. */
  url: string;
  pdf_url: string;
}

/** Filters of the audit log, as the address and the API carry them. */
export const auditQuerySchema = z.strictObject({
  actor: z.string().trim().max(254).optional(),
  application: z.uuid('Not an application id.').optional(),
  action: z.string().trim().max(60).optional(),
  from: z.iso.date('Use a date such as 2026-09-01.').optional(),
  to: z.iso.date('Use a date such as 2026-09-01.').optional(),
  /** Entries older than this sequence number: the next page. */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export interface AuditEventView {
  seq: number;
  at: string;
  actor_type: 'staff' | 'service_link' | 'applicant' | 'anonymous' | 'system' | 'api_client';
  actor_id: string | null;
  actor_label: string | null;
  action: string;
  application_id: string | null;
  /**
   * The applicant's name, for a member who may also read applications; null when the entry is
   * about no application, the application has no name or is gone, or the member may not.
   */
  application_name?: string | null;
  detail: Record<string, unknown>;
  ip: string | null;
}

export interface AuditPageResponse {
  events: AuditEventView[];
  /** Pass as `before` for the next page; null on the last. */
  next_before: number | null;
}
