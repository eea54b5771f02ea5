import type { EnrolmentStartResponse } from '../../shared/staff/staff-api';
import { lazy } from '../runtime/lazy';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 seconds. */
const PERIOD_SECONDS = 30;
/** A code from the step before or after is still accepted: phones' clocks drift. */
const TOLERANCE_SECONDS = PERIOD_SECONDS;

// Staff sign in a few times a day; the applicants' server need not load these at start.
const otplib = lazy(() => import('otplib'));
const qrcode = lazy(() => import('qrcode'));

export async function newTotpSecret(): Promise<string> {
  return (await otplib()).generateSecret();
}

/** The enrolment screen's content: the key as text, the otpauth:// link and its QR code. */
export async function enrolmentDetails(
  secret: string,
  issuer: string,
  email: string,
): Promise<EnrolmentStartResponse> {
  const uri = (await otplib()).generateURI({ issuer, label: email, secret });
  const svg = await (await qrcode()).toString(uri, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
  });
  return {
    secret,
    otpauth_uri: uri,
    qr_data_url: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

/**
 * The time step a code belongs to, if it is right for the secret now (within one step either
 * way), or null. The caller accepts each step once, so a code cannot be replayed.
 */
export async function totpStep(secret: string, code: string): Promise<number | null> {
  const result = await (await otplib()).verify({
    secret,
    token: code,
    period: PERIOD_SECONDS,
    epochTolerance: TOLERANCE_SECONDS,
  });
  // otplib's result type joins HOTP's and TOTP's; only TOTP's carries the time step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
