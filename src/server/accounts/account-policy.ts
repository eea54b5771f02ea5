import type { Limit } from '../rate-limit/rate-limiter';
import type { SignInLimits } from '../rate-limit/sign-in-throttle';

/** How long secrets live and how often each flow may be tried; documented in the README. */
export const CONFIRMATION_CODE_TTL_MINUTES = 30;
export const CONFIRMATION_CODE_MAX_FAILURES = 5;
export const PASSWORD_RESET_TTL_MINUTES = 30;
export const SESSION_ABSOLUTE_HOURS = 12;

const minutes = (n: number) => n * 60;

/**
 * Log-in: what refuses counts per address, so a stranger's wrong passwords never refuse the
 * owner's right one (decision 045).
 */
export const LOGIN_LIMITS = {
  perSource: { name: 'login:ip', max: 60, windowSeconds: minutes(3) },
  perSourceAndAccount: { name: 'login:ip-account', max: 10, windowSeconds: minutes(3) },
  failuresPerAccount: { name: 'login-failed:account', max: 10, windowSeconds: minutes(15) },
  failuresPerSourceAndAccount: {
    name: 'login-failed:ip-account',
    max: 3,
    windowSeconds: minutes(15),
  },
} satisfies SignInLimits;

export const LIMITS = {
  signupPerIp: { name: 'signup:ip', max: 20, windowSeconds: minutes(60) },
  confirmPerAccount: { name: 'confirm:account', max: 10, windowSeconds: minutes(15) },
  confirmPerIp: { name: 'confirm:ip', max: 30, windowSeconds: minutes(15) },
  resendPerAccount: { name: 'resend:account', max: 5, windowSeconds: minutes(60) },
  resendPerIp: { name: 'resend:ip', max: 20, windowSeconds: minutes(60) },
  forgotPerAccount: { name: 'forgot:account', max: 5, windowSeconds: minutes(60) },
  forgotPerIp: { name: 'forgot:ip', max: 20, windowSeconds: minutes(60) },
  resetPerIp: { name: 'reset:ip', max: 20, windowSeconds: minutes(15) },
} satisfies Record<string, Limit>;

export const ACCOUNT_MESSAGES = {
  signedUp: (email: string) =>
    `We sent a confirmation code to ${email}. Enter it to finish creating your account.`,
  codeWrong: 'That confirmation code is not correct. Check the code in your email and try again.',
  codeDead:
    'This confirmation code has expired or was entered wrongly too many times. Request a new code.',
  confirmed: 'Your account is confirmed. You can log in now.',
  codeResent: (email: string) =>
    `If ${email} has an account waiting for confirmation, we sent it a new code.`,
  loginFailed: 'The email address or password is incorrect.',
  notConfirmed:
    'Your account is not confirmed yet. Enter the code we emailed you, or request a new one.',
  resetRequested: (email: string) =>
    `If an account exists for ${email}, we sent it a link to reset your password. The link expires in ${PASSWORD_RESET_TTL_MINUTES} minutes.`,
  resetLinkDead:
    'This password reset link has expired or has already been used. Please request a new one.',
  passwordReset: 'Your password has been reset. Please log in with your new password.',
  loggedOut: 'You have been logged out.',
} as const;
