import { describe, expect, it } from 'vitest';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { ServerError, UnauthorizedError } from '../data/http-client';
import { CARD_ERROR_TITLES, failureMessage, replyMessage } from './account-calls';

describe('account call helpers', () => {
  it('titles failures as spec 000 section 8 says', () => {
    expect(CARD_ERROR_TITLES).toEqual({
      login: 'Login Card Error',
      signup: 'Sign Up Card Error',
      confirm: 'Confirm Card Error',
      forgot: 'Forgot Password Card Error',
      reset: 'Reset Password Card Error',
      resend: 'Resend Confirmation Code Error',
    });
  });

  it("uses the server's message, else the generic one", () => {
    expect(failureMessage(new ServerError('Too many attempts.', 429))).toBe('Too many attempts.');
    expect(failureMessage(new UnauthorizedError('Ended.'))).toBe('Ended.');
    expect(failureMessage(new Error('boom'))).toBe(GENERIC_SERVER_ERROR_MESSAGE);
  });

  it('falls back when a reply has no message', () => {
    expect(replyMessage({ message: 'Sent.' }, 'x')).toBe('Sent.');
    expect(replyMessage(undefined, 'x')).toBe('x');
    expect(replyMessage({ message: ' ' }, 'x')).toBe('x');
  });
});
