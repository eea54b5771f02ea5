import type { FastifyServerOptions } from 'fastify';
import type { Env } from '../config/env';
import { redactUrl } from './redact-url';

/**
 * The server's pino settings: secrets in headers and query strings never reach a log line. A
 * stream is given only by tests that read what is logged.
 */
export function appLoggerOptions(
  level: Env['LOG_LEVEL'],
  stream?: { write(line: string): void },
): FastifyServerOptions['logger'] {
  return {
    level,
    redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    serializers: {
      req: (request) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
    ...(stream ? { stream } : {}),
  };
}
