import type { StaffRole } from '../../../shared/staff/permissions';
import type { SsoErrorCode } from '../../../shared/staff/sso-errors';
import type { AuditTrail } from '../../audit/audit-trail';
import type { Executor } from '../../db/executor';
import type { StaffStore } from '../staff-store';
import { type RoleMapping, roleFromValues } from './role-mapping';
import type { SsoStore } from './sso-store';

/*
 * Any external identity provider (OpenID Connect today; SAML 2.0 could be a second one) sends the
 * browser away with `start` and turns the provider's answer into an `ExternalIdentity` with
 * `finish`. Who that identity may be in the staff console is decided once, in `admitMember`,
 * whatever the protocol.
 */

/** Who the provider says signed in, in the same shape whatever the protocol. */
export interface ExternalIdentity {
  /** The provider's identifier (the OIDC `iss`, a SAML entity ID): subjects are unique within it. */
  issuer: string;
  /** The member's stable identifier at the provider (`sub`, a SAML persistent NameID). */
  subject: string;
  email: string | null;
  /** False when the provider says the address is not verified; null when it does not say. */
  emailVerified: boolean | null;
  displayName: string;
  /** The values of the claim (or attribute) the role mapping reads. */
  roleClaimValues: string[];
  /** When the member last authenticated at the provider, if it says. */
  authTime: Date | null;
}

export interface SignInStart {
  /** Where the provider sends the browser back. */
  callbackUrl: string;
  /** Step-up: the hash of the staff session that asks for a fresh sign-in of its member. */
  stepUpSession: string | null;
}

export interface StartedSignIn {
  /** The provider's page the browser is sent to. */
  redirectUrl: string;
  /** Kept in a short-lived cookie of this browser; `finish` needs it back. */
  browserBinding: string;
}

export interface SignInResponse {
  /** The callback address as registered at the provider. */
  callbackUrl: string;
  /** What the provider sent back (the query, or a posted form). */
  params: URLSearchParams;
  /** The cookie `start` set in this browser; undefined when the browser has none. */
  browserBinding: string | undefined;
}

export interface FinishedSignIn {
  identity: ExternalIdentity;
  /** The session that asked for this sign-in as a step-up, or null for a sign-in. */
  stepUpSession: string | null;
}

export interface IdentityProvider {
  /** What staff sessions record as the way their member signed in. */
  readonly method: 'oidc';
  start(request: SignInStart): Promise<StartedSignIn>;
  /** The identity, or an `SsoRefusal` saying why not. */
  finish(response: SignInResponse): Promise<FinishedSignIn>;
}

/** A refused sign-in: the code the sign-in page shows, and the reason the audit trail keeps. */
export class SsoRefusal extends Error {
  override name = 'SsoRefusal';
  constructor(
    readonly code: SsoErrorCode,
    readonly reason: string,
    readonly identity: ExternalIdentity | null = null,
  ) {
    super(reason);
  }
}

/** A provider that cannot be reached: the start of a sign-in answers 503. */
export class SsoUnavailable extends Error {
  override name = 'SsoUnavailable';
}

/** Sign-ins are finished within this time of their start, or not at all. */
export const SIGN_IN_MINUTES = 10;

export interface AdmissionDeps {
  store: StaffStore;
  sso: SsoStore;
  audit: AuditTrail;
  /** Ends every session of a member (a changed role or a role taken away). */
  revokeAllOf: (staffId: string, tx: Executor) => Promise<void>;
}

export type AdmittedMember = NonNullable<Awaited<ReturnType<StaffStore['findById']>>>;

/**
 * Who an identity is in the staff console. The member linked to the identity (issuer and
 * subject), or else the member invited with its email address (never when the provider says the
 * address is unverified), or else a new member when the role mapping grants a role. A member is
 * admitted when the mapping grants a role or an administrator invited them; the role follows the
 * mapping whenever it grants one. Throws an `SsoRefusal` otherwise.
 */
export async function admitMember(
  deps: AdmissionDeps,
  identity: ExternalIdentity,
  mapping: RoleMapping,
): Promise<AdmittedMember> {
  const { store, sso } = deps;
  const refuse = (code: SsoErrorCode, reason: string) => new SsoRefusal(code, reason, identity);
  const role: StaffRole | null = roleFromValues(identity.roleClaimValues, mapping);

  let member = await store.findByOidcSubject(identity.issuer, identity.subject);
  if (!member && identity.email) {
    const invited = await store.findByEmail(identity.email);
    if (invited) {
      if (invited.oidcSubject) {
        throw refuse(
          'sso_linked_elsewhere',
          'the member of this email address is linked to another account at the provider',
        );
      }
      if (identity.emailVerified === false) {
        throw refuse('sso_email_unverified', 'the provider says the email address is unverified');
      }
      member = invited;
    }
  }
  if (member?.disabledAt) throw refuse('sso_disabled', 'the member is disabled');

  if (!member) {
    if (!role) throw refuse('sso_no_role', 'not invited, and the role mapping grants no role');
    if (!identity.email) throw refuse('sso_no_role', 'the provider gave no email address');
    if (identity.emailVerified === false) {
      throw refuse('sso_email_unverified', 'the provider says the email address is unverified');
    }
    const email = identity.email;
    const linked = await store.transaction(async (tx) => {
      const created = await store.upsertInvited(
        { email, role, displayName: identity.displayName },
        tx,
      );
      await deps.audit.record(
        {
          actor: { type: 'system', label: 'identity provider' },
          action: 'staff.provisioned',
          detail: { staff_id: created.id, email: created.email, role, issuer: identity.issuer },
        },
        tx,
      );
      return store.update(
        created.id,
        { oidcIssuer: identity.issuer, oidcSubject: identity.subject, lastSignInAt: new Date() },
        tx,
      );
    });
    if (!linked) throw refuse('sso_failed', 'the new member could not be stored');
    return linked;
  }

  const current = member;
  if (!role && !(await sso.wasInvited(current.id))) {
    // Admitted by the mapping before and no longer: nothing of that access stays.
    await store.transaction((tx) => deps.revokeAllOf(current.id, tx));
    throw refuse('sso_no_role', 'the role mapping no longer grants a role, and not invited');
  }
  return store.transaction(async (tx) => {
    const newRole = role ?? current.role;
    const updated = await store.update(
      current.id,
      {
        oidcIssuer: identity.issuer,
        oidcSubject: identity.subject,
        role: newRole,
        lastSignInAt: new Date(),
        failedSignIns: 0,
        ...(identity.displayName && !current.displayName
          ? { displayName: identity.displayName }
          : {}),
      },
      tx,
    );
    if (!updated) throw refuse('sso_failed', 'the member could not be updated');
    if (newRole !== current.role) {
      await deps.revokeAllOf(current.id, tx);
      await deps.audit.record(
        {
          actor: { type: 'system', label: 'identity provider' },
          action: 'staff.role_changed',
          detail: { staff_id: current.id, email: current.email, from: current.role, to: newRole },
        },
        tx,
      );
    }
    return updated;
  });
}
