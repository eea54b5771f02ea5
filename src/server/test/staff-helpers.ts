import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { StaffRole } from '../../shared/staff/permissions';
import { randomToken, sha256 } from '../accounts/secrets';
import { staffMembers, staffSessions } from '../db/schema';
import { STAFF_SESSION_ABSOLUTE_HOURS, staffCookieName } from '../staff/staff-sessions';
import { testDatabaseOf } from './test-app';

export interface SignedInStaff {
  /** The Cookie header of the session. */
  cookie: string;
  staffId: string;
  email: string;
}

/**
 * A staff member with a signed-in session, written straight to the database as a finished
 * sign-in leaves them: a password and a second factor, proved now unless `fresh2fa` is false
 * (then a step-up is needed before an export or a staff change).
 */
export async function signedInStaff(
  app: FastifyInstance,
  options: { role: StaffRole; email?: string; fresh2fa?: boolean },
): Promise<SignedInStaff> {
  const db = testDatabaseOf(app);
  const email = options.email ?? `staff-${randomBytes(5).toString('hex')}@example.edu`;
  const [member] = await db
    .insert(staffMembers)
    .values({ email, role: options.role, displayName: email.split('@')[0] ?? email })
    .returning({ id: staffMembers.id });
  const staffId = member?.id as string;
  const token = randomToken();
  await db.insert(staffSessions).values({
    tokenHash: sha256(token),
    staffId,
    stage: 'signed_in',
    method: 'password',
    secondFactorAt: options.fresh2fa === false ? null : new Date(),
    expiresAt: new Date(Date.now() + STAFF_SESSION_ABSOLUTE_HOURS * 3_600_000),
  });
  return { cookie: `${staffCookieName(false)}=${token}`, staffId, email };
}
