// A directory of built files served over HTTP on a free port, for the browser benchmarks' pages
// that the production server does not serve (the yardstick, the 150-field page).
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

export async function serveDirectory(
  directory: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const file = path.join(directory, url.pathname === '/' ? 'index.html' : url.pathname);
    if (!file.startsWith(directory)) {
      response.writeHead(404).end();
      return;
    }
    response.setHeader(
      'Content-Type',
      CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    );
    createReadStream(file)
      .on('error', () => response.writeHead(404).end())
      .pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
