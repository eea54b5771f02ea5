import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/test-app';
import { contentSecurityPolicy, securityHeaders } from './security-headers';

describe('security headers', () => {
  it('let uploads go to the bucket named and nowhere else', () => {
    const policy = contentSecurityPolicy(['https://bucket.example.edu']);
    expect(policy).toContain("connect-src 'self' https://bucket.example.edu;");
    expect(policy).toContain("form-action 'self' https://bucket.example.edu;");
    expect(contentSecurityPolicy([])).toContain("connect-src 'self';");
    expect(securityHeaders([])['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('come with a request refused before its route runs', async () => {
    const app = await buildTestApp('pglite');
    try {
      const refused = await app.inject({
        method: 'PUT',
        url: '/api/answer',
        headers: { origin: 'https://elsewhere.example', 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(refused.headers['strict-transport-security']).toContain('includeSubDomains');
      expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await app.close();
    }
  });
});
