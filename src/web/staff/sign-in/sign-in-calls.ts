import type { StaffRole } from '../../../shared/staff/permissions';
import {
  type EnrolmentStartResponse,
  type InvitationAcceptForm,
  type RecoveryCodesResponse,
  type SignInStepResponse,
  STAFF_API,
  type StaffSignInForm,
} from '../../../shared/staff/staff-api';
import { postJson } from '../../data/http-client';

/** What an invitation check may tell about the invitation; every part is optional. */
export interface InvitationCheckResponse {
  email?: string;
  role?: StaffRole;
  display_name?: string;
  expires_at?: string;
}

const api = (path: string) => `${STAFF_API}${path}`;

/**
 * Signing in, accepting an invitation and enrolling an authenticator
 * (src/shared/staff/staff-api.ts has the contract).
 */
export const signInCalls = {
  signIn: (form: StaffSignInForm) => postJson<SignInStepResponse>(api('/sign-in'), form),
  secondFactor: (code: string) => postJson<SignInStepResponse>(api('/second-factor'), { code }),
  recoveryCode: (code: string) => postJson<SignInStepResponse>(api('/recovery-code'), { code }),
  checkInvitation: (token: string) =>
    postJson<InvitationCheckResponse>(api('/invitation/check'), { token }),
  acceptInvitation: (form: InvitationAcceptForm) =>
    postJson<Partial<SignInStepResponse>>(api('/invitation/accept'), form),
  startEnrolment: () => postJson<EnrolmentStartResponse>(api('/enrolment/start')),
  finishEnrolment: (code: string) =>
    postJson<RecoveryCodesResponse>(api('/enrolment/finish'), { code }),
};

export const signInKeys = {
  invitation: (token: string) => ['staff', 'invitation', token] as const,
  enrolment: ['staff', 'enrolment'],
} as const;
