import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import { type Metrics, UNMATCHED_ROUTE } from './metrics';

export const METRICS_PATH = '/metrics';
export const METRICS_REFUSED_MESSAGE = 'A valid metrics token is required.';

export interface MetricsRoutesOptions {
  metrics: Metrics;
  /** METRICS_TOKEN; unset, the metrics are not served at all. */
  token: string | undefined;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Digests have one length whatever was sent, so the comparison takes the same time for a wrong
 * token of any length and timingSafeEqual never throws.
 */
function bearerTokenMatches(request: FastifyRequest, expectedDigest: Buffer): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match?.[1]) return false;
  return timingSafeEqual(sha256(match[1]), expectedDigest);
}

/**
 * `GET /metrics` in the Prometheus text format, for the operators' scraper only: it needs the
 * bearer token from METRICS_TOKEN, and without one configured the address does not exist (a
 * browser asking for it must not get the web app's page either).
 */
export const metricsRoutes: FastifyPluginAsync<MetricsRoutesOptions> = async (app, options) => {
  const { metrics, token } = options;
  if (!token) {
    app.get(METRICS_PATH, async () => {
      throw new HttpError(404, NOT_FOUND_MESSAGE);
    });
    return;
  }
  const expectedDigest = sha256(token);
  app.get(METRICS_PATH, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!bearerTokenMatches(request, expectedDigest)) {
      throw new HttpError(401, METRICS_REFUSED_MESSAGE, undefined, {
        'www-authenticate': 'Bearer',
      });
    }
    const body = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).send(body);
  });
};

/**
 * Counts and times every response by its route pattern (`/api/document/:key/pdf`), never its
 * path: ids and tokens in paths must not become labels.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      status_code: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
