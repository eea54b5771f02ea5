import {
  type AuditPageResponse,
  type AuditQuery,
  STAFF_API,
} from '../../../shared/staff/staff-api';
import { getJson } from '../../data/http-client';
import { fetchFile } from '../shell/staff-calls';

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

/** The audit log, its actions and its CSV (src/shared/staff/staff-api.ts has the contract). */
export const auditCalls = {
  auditActions: () => getJson<unknown>(api('/audit/actions')).then(actionList),
  audit: (filters: AuditFilters, before?: number | null) =>
    getJson<AuditPageResponse>(api(`/audit${auditSearch(filters, before)}`)),
  auditCsv: (filters: AuditFilters) => fetchFile(api(`/audit.csv${auditSearch(filters)}`)),
};

export const auditKeys = {
  auditActions: ['staff', 'audit-actions'],
  audit: (filters: AuditFilters) => ['staff', 'audit', filters] as const,
} as const;
