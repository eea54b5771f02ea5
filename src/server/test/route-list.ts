import type { FastifyInstance } from 'fastify';

export interface ListedRoute {
  url: string;
  methods: string[];
}

/**
 * Every route of an app with its methods, read from Fastify's route tree (`printRoutes`): each
 * line is a path segment under the line above it at one less level of indentation.
 */
export function listRoutes(app: FastifyInstance): ListedRoute[] {
  const routes: ListedRoute[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const url = `${prefixes[depth - 1] ?? ''}${match[2]}`;
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    const methods = (match[3] ?? '')
      .split(',')
      .map((method) => method.trim())
      .filter((method) => method !== '' && method !== 'HEAD');
    for (const method of methods) routes.push({ url, methods: [method] });
  }
  return routes;
}
