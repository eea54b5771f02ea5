import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy. Radix and react-remove-scroll set element styles at run time, hence
 * inline styles; with S3 the browser posts uploads straight to the bucket (`uploadOrigins`).
 */
export function contentSecurityPolicy(uploadOrigins: readonly string[]): string {
  const directives: Record<string, readonly string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...uploadOrigins],
    'frame-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'", ...uploadOrigins],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join(';');
}

/**
 * Every response's security headers: the policy above, HSTS for a year with subdomains, no
 * framing, no MIME sniffing, same-origin referrers and isolation (OWASP's secure headers list).
 */
export function securityHeaders(
  uploadOrigins: readonly string[],
): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': contentSecurityPolicy(uploadOrigins),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'same-origin',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  });
}

/**
 * Sends the security headers and the request id on every response. The headers are built once at
 * start-up: they depend on configuration only, and building them per request showed in profiles.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  uploadOrigins: readonly string[],
): void {
  const headers = securityHeaders(uploadOrigins);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
}
