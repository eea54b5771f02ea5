import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
