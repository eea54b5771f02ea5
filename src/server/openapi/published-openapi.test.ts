import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { compileErrors, validate } from '@readme/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_SCOPE_NAMES } from '../../shared/integration/api-scopes';
import type { OpenApiDocument } from '../integration/openapi-document';
import { generateOpenApiDocument, PUBLISHED_OPENAPI_FILE } from './published-openapi';

describe('the published OpenAPI document', () => {
  let document: OpenApiDocument;
  beforeAll(async () => {
    document = await generateOpenApiDocument();
  });

  it('is valid OpenAPI 3.1 and the same as the committed docs/openapi-v1.json', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    const committed: unknown = JSON.parse(
      await readFile(PUBLISHED_OPENAPI_FILE, 'utf8').catch(() => 'null'),
    );
    // A change to a route's schema changes what integrators were promised: it is reviewed.
    expect(
      isDeepStrictEqual(document, committed),
      'The API differs from docs/openapi-v1.json: run `npm run openapi`, review the diff (is it a breaking change for integrators?) and commit it.',
    ).toBe(true);
  });

  it('names every scope and gives every operation of a scope its security and its problems', async () => {
    const oauth = document.components.securitySchemes.oauth2 as {
      flows: { clientCredentials: { tokenUrl: string; scopes: Record<string, string> } };
    };
    expect(oauth.flows.clientCredentials.tokenUrl).toBe('/api/v1/oauth/token');
    expect(Object.keys(oauth.flows.clientCredentials.scopes)).toEqual(API_SCOPE_NAMES);
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods)) {
        if (operation.operationId === 'createToken') continue;
        expect(operation.security?.[0]?.oauth2, operation.operationId).toHaveLength(1);
        for (const status of ['401', '403', '429'])
          expect(
            Object.keys(operation.responses[status]?.content ?? {}),
            `${operation.operationId} ${status}`,
          ).toEqual(['application/problem+json']);
      }
    }
  });
});
