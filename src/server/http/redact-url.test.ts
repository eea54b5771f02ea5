import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url';

describe('redactUrl', () => {
  it('hides every secret a link or a callback carries, and keeps the rest', () => {
    const url = redactUrl(
      '/staff/sso/callback?code=abc123&state=s3cret&iss=https%3A%2F%2Fidp.example.edu',
    );
    expect(url).not.toContain('abc123');
    expect(url).not.toContain('s3cret');
    expect(url).toContain('code=%5Bredacted%5D');
    expect(url).toContain('state=%5Bredacted%5D');
    expect(url).toContain('iss=https%3A%2F%2Fidp.example.edu');
    expect(redactUrl('/staff/invitation?token=t0ken')).toBe(
      '/staff/invitation?token=%5Bredacted%5D',
    );
    expect(redactUrl('/about')).toBe('/about');
  });
});
