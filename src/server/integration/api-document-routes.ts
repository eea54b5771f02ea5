import type { FastifyInstance } from 'fastify';
import type { ApiOperations } from './api-operations';
import { apiReferencePage } from './api-reference-page';
import { type OpenApiDocument, openApiDocument } from './openapi-document';

/**
 * `GET /api/v1/openapi.json` and `GET /api/v1/reference`, open to anyone: made on first request,
 * once every capability has registered its operations.
 */
export function apiDocumentRoutes(operations: ApiOperations) {
  let document: OpenApiDocument | null = null;
  let page: string | null = null;
  const current = () => {
    document ??= openApiDocument(operations.list);
    return document;
  };
  return async (api: FastifyInstance): Promise<void> => {
    api.get('/openapi.json', async (_request, reply) =>
      reply.type('application/json').send(current()),
    );
    api.get('/reference', async (_request, reply) => {
      page ??= apiReferencePage(current());
      return reply.type('text/html; charset=utf-8').send(page);
    });
  };
}
