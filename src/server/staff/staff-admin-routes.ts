import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { StaffRole } from '../../shared/staff/permissions';
import {
  changeRoleSchema,
  type InviteStaffResponse,
  inviteStaffSchema,
  STAFF_API,
  type StaffMemberSummary,
  staffIdParams,
} from '../../shared/staff/staff-api';
import type { AuditAction } from '../audit/audit-trail';
import type { Env } from '../config/env';
import { HttpError } from '../http/http-error';
import { siteUrl } from '../http/site-url';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type InvitationDependencies, inviteStaff } from './invitations';
import { STAFF_AUTH_MESSAGES } from './staff-policy';
import { type StaffPrincipal, type StaffSessions, staffActor, staffOf } from './staff-sessions';
import { memberSummary, type StaffMember } from './staff-store';

export interface StaffAdminRoutesOptions extends InvitationDependencies {
  env: Pick<Env, 'PUBLIC_URL'>;
  sessions: StaffSessions;
}

/** Admins invite staff, change roles and disable members; every change is on record. */
export const staffAdminRoutes: FastifyPluginAsync<StaffAdminRoutesOptions> = async (
  parent,
  context,
) => {
  const { store, sessions } = context;
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    `${STAFF_API}/staff`,
    { onRequest: sessions.guard('staff.manage', { stepUp: false }) },
    async (): Promise<StaffMemberSummary[]> => (await store.list()).map(memberSummary),
  );

  app.post(
    `${STAFF_API}/staff/invitations`,
    { schema: { body: inviteStaffSchema }, onRequest: sessions.guard('staff.manage') },
    async (request): Promise<InviteStaffResponse> => {
      const staff = staffOf(request);
      const invitation = await inviteStaff(context, {
        email: request.body.email,
        role: request.body.role,
        displayName: request.body.display_name,
        base: siteUrl(context.env, request),
        actor: staffActor(staff),
        ip: request.ip,
      });
      return {
        member: memberSummary(invitation.member),
        link: invitation.link,
        expires_at: invitation.expiresAt.toISOString(),
      };
    },
  );

  /**
   * Applies a change to another member, keeping one active admin, revoking the member's sessions
   * (a new role or a disabled account takes effect at once) and recording it, all or nothing.
   */
  async function changeMember(
    staff: StaffPrincipal,
    staffId: string,
    change: Partial<Pick<StaffMember, 'role' | 'disabledAt'>>,
    action: AuditAction,
    request: FastifyRequest,
  ): Promise<StaffMemberSummary> {
    if (staffId === staff.id) throw new HttpError(403, STAFF_AUTH_MESSAGES.notYourself);
    return store.transaction(async (tx) => {
      await store.lockMembers(tx);
      const member = await store.findById(staffId, tx);
      if (!member) throw new HttpError(404, STAFF_AUTH_MESSAGES.memberNotFound);
      const adminsBefore = await store.activeAdminCount(tx);
      const updated = await store.update(staffId, change, tx);
      if (!updated) throw new HttpError(404, STAFF_AUTH_MESSAGES.memberNotFound);
      if (adminsBefore > 0 && (await store.activeAdminCount(tx)) === 0) {
        throw new HttpError(409, STAFF_AUTH_MESSAGES.lastAdmin);
      }
      await sessions.revokeAllOf(staffId, tx);
      await request.audit.record(
        {
          action,
          detail: {
            staff_id: member.id,
            email: member.email,
            ...(change.role ? { from: member.role, to: change.role } : {}),
          },
        },
        tx,
      );
      return memberSummary(updated);
    });
  }

  app.post(
    `${STAFF_API}/staff/:staffId/role`,
    {
      schema: { params: staffIdParams, body: changeRoleSchema },
      onRequest: sessions.guard('staff.manage'),
    },
    async (request) =>
      changeMember(
        staffOf(request),
        request.params.staffId,
        { role: request.body.role as StaffRole },
        'staff.role_changed',
        request,
      ),
  );

  app.post(
    `${STAFF_API}/staff/:staffId/disable`,
    { schema: { params: staffIdParams }, onRequest: sessions.guard('staff.manage') },
    async (request) =>
      changeMember(
        staffOf(request),
        request.params.staffId,
        { disabledAt: new Date() },
        'staff.disabled',
        request,
      ),
  );

  app.post(
    `${STAFF_API}/staff/:staffId/enable`,
    { schema: { params: staffIdParams }, onRequest: sessions.guard('staff.manage') },
    async (request) =>
      changeMember(
        staffOf(request),
        request.params.staffId,
        { disabledAt: null },
        'staff.enabled',
        request,
      ),
  );
};
