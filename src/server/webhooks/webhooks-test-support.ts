import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ApiScope } from '../../shared/integration/api-scopes';
import { createApiClients } from '../integration/api-clients';
import { createApiClientsStore } from '../integration/api-clients-store';
import { testDatabaseOf } from '../test/test-app';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: Date;
}

/**
 * A webhook receiver on 127.0.0.1 for tests: records every request and answers with the status
 * `answer` chooses (204 unless told), `/redirect` with a 302.
 */
export async function startReceiver(
  answer: (request: ReceivedRequest) => number = () => 204,
): Promise<{ url: string; received: ReceivedRequest[]; close(): Promise<void> }> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const entry = { path: request.url ?? '/', headers: request.headers, body, at: new Date() };
      received.push(entry);
      if (entry.path.startsWith('/redirect')) {
        response.writeHead(302, { location: '/ok' }).end();
        return;
      }
      response.writeHead(answer(entry)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An API client holding these scopes and a token for all of them. */
export async function apiToken(
  app: FastifyInstance,
  name: string,
  scopes: ApiScope[],
): Promise<{ token: string; id: string }> {
  const clients = createApiClients(createApiClientsStore(testDatabaseOf(app)));
  const made = await clients.create({ name, scopes, createdBy: 'test' });
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: made.client.client_id,
      client_secret: made.secret,
    }).toString(),
  });
  return { token: (response.json() as { access_token: string }).access_token, id: made.client.id };
}
