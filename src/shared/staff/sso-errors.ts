/**
 * Why a sign-in through the university's identity provider was refused. The server sends the
 * browser back to the sign-in page with `?error=<code>`; the page shows the sentence.
 */
export const SSO_ERROR_MESSAGES = {
  sso_failed:
    'Signing in with your university account did not work. Please try again, and ask the IT service desk if it keeps happening.',
  sso_expired:
    'This sign-in was started in another browser window, took more than 10 minutes or was already used. Please sign in again.',
  sso_cancelled: 'Signing in at the university was cancelled or refused. Please try again.',
  sso_unavailable:
    'The university sign-in service cannot be reached right now. Please try again in a few minutes.',
  sso_no_role:
    'Your university account does not give access to the staff console. Ask an administrator to invite you.',
  sso_disabled: 'Your staff access has been turned off. Ask an administrator if you need it back.',
  sso_email_unverified:
    'Your university account did not confirm an email address, so it cannot be matched to a staff invitation. Ask the IT service desk.',
  sso_linked_elsewhere:
    'Your staff account is linked to a different university account. Ask an administrator.',
  sso_step_up_mismatch:
    'You signed in at the university as someone else. To confirm it is you, sign in with your own account.',
  sso_step_up_stale:
    'The university did not ask for your password again, so this could not confirm it is you. Please try again.',
  sso_session_ended: 'Your staff session has ended. Please sign in again.',
} as const;

export type SsoErrorCode = keyof typeof SSO_ERROR_MESSAGES;

/** The sentence for a code from the address, or null for anything else. */
export function ssoErrorMessage(code: string | null | undefined): string | null {
  return code && Object.hasOwn(SSO_ERROR_MESSAGES, code)
    ? SSO_ERROR_MESSAGES[code as SsoErrorCode]
    : null;
}
