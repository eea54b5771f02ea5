import type { MessageReply } from '../../shared/accounts/account-api';
import type {
  ConfirmForm,
  ForgotPasswordForm,
  LoginForm,
  ResendConfirmForm,
  ResetPasswordForm,
  SignupForm,
} from '../../shared/accounts/account-forms';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { postJson, ServerError, UnauthorizedError } from '../data/http-client';

/** The account calls of spec 000 section 7; each answers `{message}`. */
export const accountCalls = {
  login: (form: LoginForm) => postJson<MessageReply>('/public/login', form),
  signup: (form: SignupForm) => postJson<MessageReply>('/public/signup', form),
  confirm: (form: ConfirmForm) => postJson<MessageReply>('/public/confirm', form),
  resendConfirm: (form: ResendConfirmForm) =>
    postJson<MessageReply>('/public/resend-confirm', form),
  forgotPassword: (form: ForgotPasswordForm) =>
    postJson<MessageReply>('/public/forgot-password', form),
  resetPassword: (form: ResetPasswordForm) =>
    postJson<MessageReply>('/public/reset-password', form),
};

/** Spec 000 section 8: a failed call's toast is titled with its card's name plus 'Error'. */
export const CARD_ERROR_TITLES = {
  login: 'Login Card Error',
  signup: 'Sign Up Card Error',
  confirm: 'Confirm Card Error',
  forgot: 'Forgot Password Card Error',
  reset: 'Reset Password Card Error',
  resend: 'Resend Confirmation Code Error',
} as const;

/** The sentence to show for a failed call: the server's own, or the generic one. */
export function failureMessage(error: unknown): string {
  return error instanceof ServerError || error instanceof UnauthorizedError
    ? error.message
    : GENERIC_SERVER_ERROR_MESSAGE;
}

/** The reply's message, or a fallback when the server sent none. */
export function replyMessage(reply: MessageReply | undefined, fallback: string): string {
  return typeof reply?.message === 'string' && reply.message.trim() !== ''
    ? reply.message
    : fallback;
}
