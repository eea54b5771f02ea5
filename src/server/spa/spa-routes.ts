import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';

/** Paths that belong to the API: an unknown one answers JSON 404, never the web app's page. */
const API_PREFIXES = [
  '/api/',
  '/staff/api/',
  '/public/',
  '/service/',
  '/lookup/',
  '/dev/',
  '/assets/',
];

/**
 * How the built web app's files are served: hashed assets cached for a year, the rest checked
 * each time. The first-load benchmark serves its yardstick page the same way.
 */
export function webFilesOptions(webRoot: string): FastifyStaticOptions {
  return {
    root: webRoot,
    index: false,
    wildcard: false,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  };
}

/** The staff console's pages, under /staff, are a web app of their own (staff.html). */
export function webPageFile(pathname: string): 'index.html' | 'staff.html' {
  return pathname === '/staff' || pathname.startsWith('/staff/') ? 'staff.html' : 'index.html';
}

export const spaRoutes: FastifyPluginAsync<{ webRoot: string }> = async (app, { webRoot }) => {
  const indexFile = path.join(webRoot, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, webFilesOptions(webRoot));
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (!wantsWebPage(request)) {
      return reply.status(404).send({ message: NOT_FOUND_MESSAGE });
    }
    if (!built) {
      return reply
        .status(503)
        .send({ message: 'The web app has not been built. Run `npm run build` (or `npm start`).' });
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile(webPageFile(request.url.split('?')[0] ?? ''));
  });
};

function wantsWebPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '';
  if (API_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return false;
  // A missing file (favicon.ico, a stale chunk) is a 404, not the app's page.
  if (path.extname(pathname) !== '') return false;
  return true;
}
