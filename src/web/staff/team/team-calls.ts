import type { StaffRole } from '../../../shared/staff/permissions';
import {
  type InviteStaffForm,
  type InviteStaffResponse,
  STAFF_API,
  type StaffMemberSummary,
} from '../../../shared/staff/staff-api';
import { getJson, postJson } from '../../data/http-client';

const api = (path: string) => `${STAFF_API}${path}`;
const id = (value: string) => encodeURIComponent(value);

/** The office's members and their invitations (src/shared/staff/staff-api.ts has the contract). */
export const teamCalls = {
  staff: () => getJson<StaffMemberSummary[]>(api('/staff')),
  invite: (form: InviteStaffForm) => postJson<InviteStaffResponse>(api('/staff/invitations'), form),
  changeRole: (staffId: string, role: StaffRole) =>
    postJson<unknown>(api(`/staff/${id(staffId)}/role`), { role }),
  setEnabled: (staffId: string, enabled: boolean) =>
    postJson<unknown>(api(`/staff/${id(staffId)}/${enabled ? 'enable' : 'disable'}`)),
};

export const teamKeys = {
  staff: ['staff', 'members'],
} as const;
