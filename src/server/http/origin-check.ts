import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './http-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CROSS_ORIGIN_MESSAGE = 'This request came from another site and was refused.';

/**
 * Refuses state-changing requests sent by a page of another origin (CSRF), on top of the
 * SameSite=Lax session cookie. Browsers send Origin on every cross-origin POST, PUT and DELETE,
 * and Sec-Fetch-Site on every request; clients that send neither are not browsers.
 */
export function registerOriginCheck(app: FastifyInstance, publicUrl: string | undefined): void {
  const configuredOrigin = publicUrl ? new URL(publicUrl).origin : null;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (!isSameOrigin(request, configuredOrigin)) throw new HttpError(403, CROSS_ORIGIN_MESSAGE);
  });
}

export function isSameOrigin(request: FastifyRequest, configuredOrigin: string | null): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const expected = configuredOrigin ?? `${request.protocol}://${request.headers.host ?? ''}`;
    return origin === expected;
  }
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}
