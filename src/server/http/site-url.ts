import type { FastifyRequest } from 'fastify';
import type { Env } from '../config/env';

/** Links in mail and on screen start at PUBLIC_URL, or where the request came to. */
export function siteUrl(env: Pick<Env, 'PUBLIC_URL'>, request: FastifyRequest): string {
  return env.PUBLIC_URL?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
}
