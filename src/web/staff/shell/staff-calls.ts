import { queryOptions } from '@tanstack/react-query';
import { GENERIC_SERVER_ERROR_MESSAGE, isApiErrorBody } from '../../../shared/api/errors';
import type { StaffRole } from '../../../shared/staff/permissions';
import {
  type ApplicationSummary,
  type AuditPageResponse,
  type AuditQuery,
  type CreatedServiceLink,
  type EnrolmentStartResponse,
  type InvitationAcceptForm,
  type InviteStaffForm,
  type InviteStaffResponse,
  type RecoveryCodesResponse,
  type ServiceLinkSummary,
  type SignInStepResponse,
  STAFF_API,
  type StaffMemberSummary,
  type StaffMeResponse,
  type StaffOptionsResponse,
  type StaffSignInForm,
} from '../../../shared/staff/staff-api';
import {
  getJson,
  parseRetryAfter,
  postJson,
  ServerError,
  UnauthorizedError,
} from '../../data/http-client';

/** What an invitation check may tell about the invitation; every part is optional. */
export interface InvitationCheckResponse {
  email?: string;
  role?: StaffRole;
  display_name?: string;
  expires_at?: string;
}

/** Audit filters as the address carries them: only the ones that are set. */
export type AuditFilters = Pick<AuditQuery, 'actor' | 'application' | 'action' | 'from' | 'to'>;

export const AUDIT_FILTER_NAMES = ['actor', 'application', 'action', 'from', 'to'] as const;

/** The query string of an audit call: the filters that are set, then the page. */
export function auditSearch(filters: AuditFilters, before?: number | null): string {
  const params = new URLSearchParams();
  for (const name of AUDIT_FILTER_NAMES) {
    const value = filters[name]?.trim();
    if (value) params.set(name, value);
  }
  if (before !== undefined && before !== null) params.set('before', String(before));
  const search = params.toString();
  return search === '' ? '' : `?${search}`;
}

/** The list of actions the audit filter offers, whatever else the reply holds. */
export function actionList(reply: unknown): string[] {
  const list =
    Array.isArray(reply) || typeof reply !== 'object' || reply === null
      ? reply
      : (reply as { actions?: unknown }).actions;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}

const api = (path: string) => `${STAFF_API}${path}`;
const id = (value: string) => encodeURIComponent(value);

/** The console's calls, one per server route (src/shared/staff/staff-api.ts has the contract). */
export const staffCalls = {
  options: () => getJson<StaffOptionsResponse>(api('/options')),
  me: () => getJson<StaffMeResponse>(api('/me')),
  signIn: (form: StaffSignInForm) => postJson<SignInStepResponse>(api('/sign-in'), form),
  secondFactor: (code: string) => postJson<SignInStepResponse>(api('/second-factor'), { code }),
  recoveryCode: (code: string) => postJson<SignInStepResponse>(api('/recovery-code'), { code }),
  stepUp: (code: string) => postJson<unknown>(api('/step-up'), { code }),
  signOut: () => postJson<unknown>(api('/sign-out')),
  checkInvitation: (token: string) =>
    postJson<InvitationCheckResponse>(api('/invitation/check'), { token }),
  acceptInvitation: (form: InvitationAcceptForm) =>
    postJson<Partial<SignInStepResponse>>(api('/invitation/accept'), form),
  startEnrolment: () => postJson<EnrolmentStartResponse>(api('/enrolment/start')),
  finishEnrolment: (code: string) =>
    postJson<RecoveryCodesResponse>(api('/enrolment/finish'), { code }),
  findApplications: (email: string) =>
    getJson<ApplicationSummary[]>(api(`/applications?email=${encodeURIComponent(email)}`)),
  links: (applicationId: string) =>
    getJson<ServiceLinkSummary[]>(api(`/applications/${id(applicationId)}/links`)),
  createLink: (applicationId: string, days: number) =>
    postJson<CreatedServiceLink>(api(`/applications/${id(applicationId)}/links`), { days }),
  revokeLink: (applicationId: string, linkId: string) =>
    postJson<unknown>(api(`/applications/${id(applicationId)}/links/${id(linkId)}/revoke`)),
  staff: () => getJson<StaffMemberSummary[]>(api('/staff')),
  invite: (form: InviteStaffForm) => postJson<InviteStaffResponse>(api('/staff/invitations'), form),
  changeRole: (staffId: string, role: StaffRole) =>
    postJson<unknown>(api(`/staff/${id(staffId)}/role`), { role }),
  setEnabled: (staffId: string, enabled: boolean) =>
    postJson<unknown>(api(`/staff/${id(staffId)}/${enabled ? 'enable' : 'disable'}`)),
  auditActions: () => getJson<unknown>(api('/audit/actions')).then(actionList),
  audit: (filters: AuditFilters, before?: number | null) =>
    getJson<AuditPageResponse>(api(`/audit${auditSearch(filters, before)}`)),
  auditCsv: (filters: AuditFilters) => fetchFile(api(`/audit.csv${auditSearch(filters)}`)),
};

export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

/**
 * A file from the server (the audit log's CSV). A refusal comes as the usual JSON error, so it
 * fails like every other call: a 401 ends the session, a 403 may ask for a step-up.
 */
export async function fetchFile(path: string): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, null);
  }
  if (response.ok) {
    return {
      blob: await response.blob(),
      fileName: fileNameOf(response.headers.get('Content-Disposition')),
    };
  }
  const body: unknown = await response.json().catch(() => null);
  const message =
    isApiErrorBody(body) && body.message.trim() !== ''
      ? body.message
      : GENERIC_SERVER_ERROR_MESSAGE;
  if (response.status === 401) throw new UnauthorizedError(message);
  throw new ServerError(
    message,
    response.status,
    isApiErrorBody(body) ? body.errors : undefined,
    isApiErrorBody(body) ? body.code : undefined,
    parseRetryAfter(response.headers.get('Retry-After')),
  );
}

/** The file name a Content-Disposition header suggests, or null. */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1].trim());
    } catch {
      // Fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || null;
}

/** Cache keys of the console's server state. */
export const staffKeys = {
  options: ['staff', 'options'],
  me: ['staff', 'me'],
  invitation: (token: string) => ['staff', 'invitation', token] as const,
  enrolment: ['staff', 'enrolment'],
  applications: (email: string) => ['staff', 'applications', email] as const,
  links: (applicationId: string) => ['staff', 'links', applicationId] as const,
  staff: ['staff', 'members'],
  auditActions: ['staff', 'audit-actions'],
  audit: (filters: AuditFilters) => ['staff', 'audit', filters] as const,
} as const;

export const meQueryOptions = queryOptions({
  queryKey: staffKeys.me,
  queryFn: staffCalls.me,
});

export const optionsQueryOptions = queryOptions({
  queryKey: staffKeys.options,
  queryFn: staffCalls.options,
});
