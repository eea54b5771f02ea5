import type { StaffRole } from '../../shared/staff/permissions';
import { STAFF_INVITATION_PAGE } from '../../shared/staff/staff-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { randomToken, sha256 } from '../accounts/secrets';
import type { AuditActor, AuditTrail } from '../audit/audit-trail';
import type { Mailer } from '../mail/mailer';
import { staffMessages } from '../mail/staff-messages';
import { INVITATION_TTL_HOURS } from './staff-policy';
import type { StaffMember, StaffStore } from './staff-store';

export interface InvitationDependencies {
  store: StaffStore;
  audit: AuditTrail;
  mailer: Mailer;
  tenant: TenantConfig;
}

export interface Invitation {
  member: StaffMember;
  link: string;
  expiresAt: Date;
}

export function invitationLink(base: string, token: string): string {
  return `${base}${STAFF_INVITATION_PAGE}?${new URLSearchParams({ token })}`;
}

/**
 * Invites a staff member (or invites again: earlier links stop working, and accepting sets a new
 * password and a new authenticator). The link is mailed and returned; only its hash is kept.
 * The console and `npm run staff -- invite` both come here.
 */
export async function inviteStaff(
  deps: InvitationDependencies,
  request: {
    email: string;
    role: StaffRole;
    displayName?: string;
    base: string;
    actor: AuditActor;
    ip?: string;
  },
): Promise<Invitation> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + INVITATION_TTL_HOURS * 3_600_000);
  const member = await deps.store.transaction(async (tx) => {
    const invited = await deps.store.upsertInvited(
      { email: request.email, role: request.role, displayName: request.displayName },
      tx,
    );
    await deps.store.replaceInvitation(invited.id, sha256(token), expiresAt, tx);
    await deps.audit.record(
      {
        actor: request.actor,
        action: 'staff.invited',
        detail: { staff_id: invited.id, email: invited.email, role: invited.role },
        ip: request.ip ?? null,
      },
      tx,
    );
    return invited;
  });
  const link = invitationLink(request.base, token);
  deps.mailer.send(
    staffMessages(deps.tenant).invitation(member.email, member.role, link, INVITATION_TTL_HOURS),
  );
  return { member, link, expiresAt };
}
