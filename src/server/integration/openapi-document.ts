import { type ZodType, z } from 'zod';
import { API_SCOPES } from '../../shared/integration/api-scopes';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../shared/integration/problem';
import type { ApiOperationSpec } from './api-operations';
import { API_PREFIX } from './api-v1-plugin';

/*
 * The OpenAPI 3.1 document of `/api/v1`, made from the operations as the routes registered them
 * and from the zod schemas they validate with: nothing is written twice, so nothing can drift.
 */

export const OPENAPI_VERSION = '3.1.0';
export const API_DOCUMENT_VERSION = '1.0.0';
export const OAUTH_SCHEME = 'oauth2';

type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: OpenApiParameter[];
  requestBody?: { required: true; content: Record<string, { schema: JsonSchema }> };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, { description: string; schema: JsonSchema } | { $ref: string }>;
      content?: Record<string, { schema: JsonSchema }>;
    }
  >;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, { description: string; schema: JsonSchema }>;
    securitySchemes: Record<string, unknown>;
  };
}

const COMPONENT_PREFIX = '#/components/schemas/';

/** Refs into `$defs` rewritten as refs into the document's components. */
function componentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(componentRefs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string'
          ? inner.replace('#/$defs/', COMPONENT_PREFIX)
          : componentRefs(inner),
      ]),
    );
  }
  return value;
}

/** Collects the schemas with a `.meta({ id })` as components, the rest inline. */
function createSchemaConverter() {
  const components: Record<string, JsonSchema> = {};
  const texts = new Map<string, string>();

  function addComponent(id: string, schema: JsonSchema) {
    const text = JSON.stringify(schema);
    const known = texts.get(id);
    if (known !== undefined && known !== text)
      throw new Error(`schema ${id} differs between a request and an answer: give each its own id`);
    texts.set(id, text);
    components[id] = schema;
  }

  return {
    components,
    convert(schema: ZodType, io: 'input' | 'output'): JsonSchema {
      const raw = z.toJSONSchema(schema, {
        target: 'draft-2020-12',
        io,
        unrepresentable: 'any',
      }) as JsonSchema;
      const {
        $schema: _dialect,
        $defs,
        ...root
      } = componentRefs(raw) as JsonSchema & {
        $defs?: Record<string, JsonSchema>;
      };
      for (const [id, definition] of Object.entries($defs ?? {})) addComponent(id, definition);
      return root;
    },
  };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  401: 'No token, or a token that is unknown, expired or revoked.',
  403: 'The token lacks the scope this operation needs.',
  429: 'This client has made too many calls; `Retry-After` says when to try again.',
};

function parametersOf(
  schema: ZodType | undefined,
  where: 'path' | 'query',
  convert: (schema: ZodType, io: 'input' | 'output') => JsonSchema,
): OpenApiParameter[] {
  if (!schema) return [];
  const json = convert(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as JsonSchema & { description?: string };
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

/** The document of every operation in `operations`, in their order. */
export function openApiDocument(operations: readonly ApiOperationSpec[]): OpenApiDocument {
  const converter = createSchemaConverter();
  const problemRef = converter.convert(problemSchema, 'output');
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];

  for (const spec of operations) {
    if (!tags.includes(spec.tag)) tags.push(spec.tag);
    const parameters = [
      ...parametersOf(spec.params, 'path', converter.convert),
      ...parametersOf(spec.query, 'query', converter.convert),
    ];
    const responses: OpenApiOperation['responses'] = {};
    const hasInput = Boolean(spec.params || spec.query || spec.body);
    const documented: Array<[number, ApiOperationSpec['responses'][number]]> = Object.entries(
      spec.responses,
    ).map(([status, response]) => [Number(status), response]);
    if (spec.scope) {
      for (const status of [401, 403, 429])
        if (!(status in spec.responses))
          documented.push([status, { description: ERROR_DESCRIPTIONS[status] ?? '' }]);
    }
    documented.sort(([a], [b]) => a - b);
    for (const [status, response] of documented) {
      const mediaType =
        response.mediaType ?? (status >= 400 && !response.schema ? PROBLEM_CONTENT_TYPE : null);
      const schema = response.schema
        ? converter.convert(response.schema, 'output')
        : mediaType === PROBLEM_CONTENT_TYPE
          ? problemRef
          : { type: 'string', contentMediaType: mediaType ?? 'application/octet-stream' };
      const headers = {
        'Cache-Control': { $ref: '#/components/headers/NoStore' },
        ...Object.fromEntries(
          Object.entries(response.headers ?? {}).map(([name, description]) => [
            name,
            { description, schema: { type: 'string' } },
          ]),
        ),
      };
      const content: Record<string, { schema: JsonSchema }> = {
        [mediaType ?? 'application/json']: { schema },
      };
      // Whatever an operation's own errors look like, input its schemas refuse is a problem.
      if (status === 400 && hasInput && !(PROBLEM_CONTENT_TYPE in content))
        content[PROBLEM_CONTENT_TYPE] = { schema: problemRef };
      // A 204 has no body, so it describes none.
      responses[String(status)] =
        status === 204
          ? { description: response.description, headers }
          : { description: response.description, headers, content };
    }
    const operation: OpenApiOperation = {
      operationId: spec.operationId,
      tags: [spec.tag],
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      security: spec.scope ? [{ [OAUTH_SCHEME]: [spec.scope] }] : [],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(spec.body
        ? {
            requestBody: {
              required: true,
              content: {
                [spec.bodyMediaType ?? 'application/json']: {
                  schema: converter.convert(spec.body, 'input'),
                },
              },
            },
          }
        : {}),
      responses,
    };
    const methods = paths[spec.path] ?? {};
    methods[spec.method.toLowerCase()] = operation;
    paths[spec.path] = methods;
  }

  const schemas = Object.fromEntries(
    Object.entries(converter.components).sort(([a], [b]) => a.localeCompare(b)),
  );
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Transfer application portal: integrators’ API',
      version: API_DOCUMENT_VERSION,
      description:
        'Submitted applications, their checklists, documents and decisions for a student information system or CRM. Authenticate with the OAuth 2.0 client credentials grant; every answer is `Cache-Control: no-store`, and errors are problem details (RFC 9457).',
    },
    servers: [{ url: API_PREFIX }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas,
      headers: {
        NoStore: {
          description: 'Always `no-store`: nothing an integrator reads is kept by a cache.',
          schema: { type: 'string', const: 'no-store' },
        },
      },
      securitySchemes: {
        [OAUTH_SCHEME]: {
          type: 'oauth2',
          description: 'A client id and secret from the portal’s administrators.',
          flows: {
            clientCredentials: {
              tokenUrl: `${API_PREFIX}/oauth/token`,
              scopes: { ...API_SCOPES },
            },
          },
        },
      },
    },
  };
}
