import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Env } from '../config/env';
import { redactUrl } from './redact-url';

/**
 * Standard output, written in blocks of 4 KB and at least every second rather than once per line:
 * at a few thousand requests a second a system call per line was most of logging's cost. Lines
 * still buffered when the process exits are written on the way out.
 */
function bufferedStandardOutput(): pino.DestinationStream {
  return pino.destination({ dest: 1, minLength: 4096, sync: false, periodicFlush: 1000 });
}

/**
 * The server's pino settings: secrets in headers and query strings never reach a log line, as a
 * request is logged through a serializer that names the fields it keeps (no headers; the address
 * with secret query values redacted) and a response as its status alone (Fastify's serializer).
 * A stream is given only by tests that read what is logged.
 */
export function appLoggerOptions(
  level: Env['LOG_LEVEL'],
  stream?: { write(line: string): void },
): FastifyServerOptions['logger'] {
  return {
    level,
    serializers: {
      req: (request) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
    stream: stream ?? bufferedStandardOutput(),
  };
}
