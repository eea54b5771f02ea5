import type { Limit } from '../rate-limit/rate-limiter';
import type { SignInLimits } from '../rate-limit/sign-in-throttle';

/** How long staff secrets live and how often each step may be tried; docs/security.md cites them. */
export const INVITATION_TTL_HOURS = 72;
export const RECOVERY_CODE_COUNT = 10;
/** After this many failures in a row the member is told by mail (`failureMailPerMember` allowing). */
export const FAILURE_MAIL_AFTER = 5;

const minutes = (n: number) => n * 60;

/**
 * Sign-in with a password: what refuses counts per address, so a stranger's wrong passwords
 * never refuse the member's right one (decision 045).
 */
export const STAFF_SIGN_IN_LIMITS = {
  perSource: { name: 'staff-sign-in:ip', max: 50, windowSeconds: minutes(15) },
  perSourceAndAccount: { name: 'staff-sign-in:ip-email', max: 10, windowSeconds: minutes(15) },
  failuresPerAccount: { name: 'staff-sign-in-failed:email', max: 10, windowSeconds: minutes(15) },
  failuresPerSourceAndAccount: {
    name: 'staff-sign-in-failed:ip-email',
    max: 3,
    windowSeconds: minutes(15),
  },
} satisfies SignInLimits;

export const STAFF_LIMITS = {
  codePerMember: { name: 'staff-code:member', max: 10, windowSeconds: minutes(15) },
  invitationPerIp: { name: 'staff-invitation:ip', max: 30, windowSeconds: minutes(15) },
  // Someone guessing all day would otherwise fill the member's mailbox; one a day says enough.
  failureMailPerMember: { name: 'staff-failure-mail:member', max: 1, windowSeconds: minutes(1440) },
} satisfies Record<string, Limit>;

export const STAFF_AUTH_MESSAGES = {
  signInFailed: 'The email address or password is incorrect.',
  codeWrong: 'That code is not correct. Check your authenticator app and try again.',
  codeReused: 'That code has already been used. Wait for the next code and try again.',
  recoveryCodeWrong: 'That recovery code is not correct or has already been used.',
  invitationDead:
    'This invitation link has expired or has already been used. Ask an administrator for a new one.',
  invitationOtherAddress:
    'This invitation was sent to a different email address. Enter the address the invitation was sent to.',
  setUpUnfinished:
    'Your account was never finished: the authenticator app was not set up. Ask an administrator for a new invitation.',
  enrolmentNotStarted: 'Start setting up your authenticator app first.',
  stepUpWithProvider:
    'Sign in again with your university account to confirm it is you, then try again.',
  signedOut: 'You have been signed out.',
  notYourself: 'You cannot change your own role or disable your own account.',
  lastAdmin: 'At least one active administrator must remain.',
  memberNotFound: 'No staff member has this id.',
} as const;
