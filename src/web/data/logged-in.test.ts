import { describe, expect, it } from 'vitest';
import { hasLoggedInCookie } from './logged-in';

describe('hasLoggedInCookie', () => {
  it('finds the marker among other cookies', () => {
    expect(hasLoggedInCookie('theme=dark; tp_signed_in=1')).toBe(true);
    expect(hasLoggedInCookie('tp_signed_in=1')).toBe(true);
  });

  it('is false without the marker', () => {
    expect(hasLoggedInCookie('')).toBe(false);
    expect(hasLoggedInCookie('theme=dark; x_tp_signed_in=1')).toBe(false);
  });

  it('is false where there is no document (tests, server)', () => {
    expect(hasLoggedInCookie()).toBe(false);
  });
});
