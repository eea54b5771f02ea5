import {
  type ApplicationSummary,
  type CreatedServiceLink,
  type ServiceLinkSummary,
  STAFF_API,
} from '../../../shared/staff/staff-api';
import { getJson, postJson } from '../../data/http-client';

const api = (path: string) => `${STAFF_API}${path}`;
const id = (value: string) => encodeURIComponent(value);

/** Read-only links to one application (src/shared/staff/staff-api.ts has the contract). */
export const linksCalls = {
  findApplications: (email: string) =>
    getJson<ApplicationSummary[]>(api(`/applications?email=${encodeURIComponent(email)}`)),
  links: (applicationId: string) =>
    getJson<ServiceLinkSummary[]>(api(`/applications/${id(applicationId)}/links`)),
  createLink: (applicationId: string, days: number) =>
    postJson<CreatedServiceLink>(api(`/applications/${id(applicationId)}/links`), { days }),
  revokeLink: (applicationId: string, linkId: string) =>
    postJson<unknown>(api(`/applications/${id(applicationId)}/links/${id(linkId)}/revoke`)),
};

export const linksKeys = {
  applications: (email: string) => ['staff', 'applications', email] as const,
  links: (applicationId: string) => ['staff', 'links', applicationId] as const,
} as const;
