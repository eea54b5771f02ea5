import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import type { StaffRole } from '../../shared/staff/permissions';
import { randomToken, sha256 } from '../accounts/secrets';
import { staffMembers, staffSessions } from '../db/schema';
import { STAFF_SESSION_ABSOLUTE_HOURS, staffCookieName } from '../staff/staff-sessions';
import { cookieHeader, post, STRONG_PASSWORD } from './accounts-helpers';
import { devToolsPath, testDatabaseOf } from './test-app';

/** The authenticator's code now, or `steps` periods of 30 seconds later (still accepted). */
export function totpCode(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/** Invites a member through the test call of `npm run staff -- invite`; returns the token. */
export async function inviteMember(
  app: FastifyInstance,
  email: string,
  role: StaffRole,
): Promise<{ token: string; staffId: string }> {
  const response = await post(app, devToolsPath('/dev/staff-invitation'), { email, role });
  if (response.statusCode !== 200) throw new Error(`invite failed: ${response.body}`);
  const { link, staff_id } = response.json() as { link: string; staff_id: string };
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return { token, staffId: staff_id };
}

export function acceptInvitation(app: FastifyInstance, token: string, email: string) {
  return post(app, '/staff/api/invitation/accept', {
    token,
    email,
    password: STRONG_PASSWORD,
    confirm_password: STRONG_PASSWORD,
  });
}

export interface EnrolledMember {
  staffId: string;
  email: string;
  /** A signed-in session with a fresh second factor. */
  cookie: string;
  secret: string;
  recoveryCodes: string[];
}

/** A member invited, with a password and an authenticator, signed in. */
export async function enrolMember(
  app: FastifyInstance,
  email: string,
  role: StaffRole,
): Promise<EnrolledMember> {
  const { token, staffId } = await inviteMember(app, email, role);
  const accepted = await acceptInvitation(app, token, email);
  if (accepted.statusCode !== 200) throw new Error(`accept failed: ${accepted.body}`);
  const enrolCookie = cookieHeader(accepted);
  const started = await post(app, '/staff/api/enrolment/start', {}, enrolCookie);
  const { secret } = started.json() as { secret: string };
  const finished = await post(
    app,
    '/staff/api/enrolment/finish',
    { code: await totpCode(secret) },
    enrolCookie,
  );
  if (finished.statusCode !== 200) throw new Error(`enrolment failed: ${finished.body}`);
  const { recovery_codes } = finished.json() as { recovery_codes: string[] };
  return { staffId, email, cookie: cookieHeader(finished), secret, recoveryCodes: recovery_codes };
}

/** Signs in with the password and then a code `steps` periods ahead (a step not used before). */
export async function signInMember(
  app: FastifyInstance,
  member: Pick<EnrolledMember, 'email' | 'secret'>,
  steps: number,
): Promise<string> {
  const first = await post(app, '/staff/api/sign-in', {
    email: member.email,
    password: STRONG_PASSWORD,
  });
  if (first.statusCode !== 200) throw new Error(`sign-in failed: ${first.body}`);
  const second = await post(
    app,
    '/staff/api/second-factor',
    { code: await totpCode(member.secret, steps) },
    cookieHeader(first),
  );
  if (second.statusCode !== 200) throw new Error(`second factor failed: ${second.body}`);
  return cookieHeader(second);
}

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
