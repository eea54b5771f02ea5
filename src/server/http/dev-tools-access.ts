import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { NOT_FOUND_MESSAGE } from './errors-plugin';
import { HttpError } from './http-error';

const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip'];

/** The query parameter that carries the key; redactUrl keeps it out of the log. */
export const DEV_TOOLS_KEY_PARAMETER = 'key';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Guards the tools that reveal mail, codes and links (the outbox, the test link calls). They
 * answer only a request that holds this process's key, that arrived on the loopback interface
 * and that no proxy forwarded, to a loopback host name (so a rebinding DNS name cannot reach
 * them from a web page). A reverse proxy on the same machine does not make them public: without
 * the key, which only the server's log shows, they answer 404 like any unknown address.
 */
export function devToolsGuard(key: string) {
  return async (request: FastifyRequest): Promise<void> => {
    const given = (request.query as Record<string, unknown> | undefined)?.[DEV_TOOLS_KEY_PARAMETER];
    const hostName = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const allowed =
      typeof given === 'string' &&
      sameSecret(given, key) &&
      LOOPBACK_ADDRESSES.has(request.socket.remoteAddress ?? '') &&
      LOOPBACK_HOSTS.has(hostName) &&
      FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
    if (!allowed) throw new HttpError(404, NOT_FOUND_MESSAGE);
  };
}
