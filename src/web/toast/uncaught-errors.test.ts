import { describe, expect, it } from 'vitest';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { ServerError, UnauthorizedError } from '../data/http-client';
import { uncaughtErrorEventMessage, uncaughtErrorMessage } from './uncaught-errors';

describe('uncaught errors', () => {
  it('shows the generic message for a programming error, whose text is for developers', () => {
    expect(
      uncaughtErrorMessage(new TypeError("Cannot read properties of undefined (reading 'x')")),
    ).toBe(GENERIC_SERVER_ERROR_MESSAGE);
    expect(uncaughtErrorMessage('a string thrown')).toBe(GENERIC_SERVER_ERROR_MESSAGE);
  });

  it("shows a failed call's own message", () => {
    expect(uncaughtErrorMessage(new ServerError('The file is too large.', 413))).toBe(
      'The file is too large.',
    );
  });

  it('says nothing about a cancelled call or an ended session (/login says that)', () => {
    expect(uncaughtErrorMessage(new DOMException('stopped', 'AbortError'))).toBeNull();
    expect(uncaughtErrorMessage(new UnauthorizedError('Not signed in.'))).toBeNull();
  });

  it('leaves error events without an error object to the browser', () => {
    expect(uncaughtErrorEventMessage({ error: null })).toBeNull();
    expect(uncaughtErrorEventMessage({ error: new Error('boom') })).toBe(
      GENERIC_SERVER_ERROR_MESSAGE,
    );
  });
});
