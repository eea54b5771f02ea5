import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { type ApiScope, parseScopeList } from '../../shared/integration/api-scopes';
import { PROBLEM_CONTENT_TYPE, type Problem } from '../../shared/integration/problem';
import { fieldErrors } from '../../shared/validation/field-errors';
import type { AuditActor } from '../audit/audit-trail';
import { INVALID_REQUEST_MESSAGE, NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import { isZodError } from '../http/zod-validation';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import type { ApiClients } from './api-clients';
import type { TokenHolder } from './api-clients-store';
import { type ApiOperations, apiRoute } from './api-operations';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API client a `/api/v1` request's bearer token belongs to; null elsewhere. */
    apiClient: TokenHolder | null;
  }
}

export const API_PREFIX = '/api/v1';

export const API_MESSAGES = {
  noToken: 'Send an access token: `Authorization: Bearer <token>` from POST /api/v1/oauth/token.',
  badToken:
    'The access token is unknown, has expired, or its client was revoked. Ask for a new one.',
  scope: (scope: ApiScope) =>
    `This operation needs the ${scope} scope, which this token does not have.`,
  tooMany: 'This client has made too many calls. Wait and try again.',
} as const;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export function problem(status: number, detail: string, errors?: Problem['errors']): Problem {
  return {
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

/** Field errors as RFC 9457 wants them: a body field by JSON Pointer, a parameter by name. */
function problemErrors(
  fields: Record<string, string[]>,
  where: 'body' | 'querystring' | 'params' | 'headers' | undefined,
): NonNullable<Problem['errors']> {
  return Object.entries(fields).flatMap(([field, messages]) =>
    messages.map((message) =>
      where === 'querystring' || where === 'params'
        ? { parameter: field, detail: `${field}: ${message}` }
        : { pointer: `#/${field.split('.').join('/')}`, detail: `${field}: ${message}` },
    ),
  );
}

/**
 * An answer an app-wide hook gave before the API's own handlers ran (the refusal of a NUL or a
 * lone surrogate, say) is in the app's `{ message, errors }` shape: integrators get it as a
 * problem like every other error. Null for anything else, the OAuth errors included.
 */
function appErrorAsProblem(status: number, payload: unknown): Problem | null {
  if (typeof payload !== 'string' || !payload.startsWith('{"message"')) return null;
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return null;
  }
  const { message, errors } = body as { message?: unknown; errors?: unknown };
  if (typeof message !== 'string') return null;
  const fields = (errors && typeof errors === 'object' ? errors : {}) as Record<string, string[]>;
  const problemFields = Object.entries(fields).flatMap(([field, messages]) => {
    const [part, ...rest] = field.split('.');
    const where = part === 'query' ? 'querystring' : part === 'params' ? 'params' : 'body';
    const name = where === 'body' ? field : rest.join('.');
    return problemErrors({ [name]: messages }, where);
  });
  const details = problemFields.map((error) => error.detail).join(' ');
  return problem(status, details ? `${message} ${details}` : message, problemFields);
}

/** Who acts in an audit entry of an API call: the client the guard admitted. */
export function apiActor(request: FastifyRequest): AuditActor {
  const holder = request.apiClient;
  if (!holder) throw new Error('apiActor is for operations behind the API guard');
  return { type: 'api_client', id: holder.id, label: holder.name };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What an API call is about, for its audit entry. Only an operation under
 * `/applications/{id}` concerns an application: an `id` elsewhere names something else (a
 * webhook subscription), and filing the call under an application of that id would put it in
 * the wrong history, or in none. Ids that are not well-formed are left out: the operation
 * refuses them anyway, and the audit trail keeps only what names something real.
 */
function auditedSubject(request: FastifyRequest): {
  applicationId: string | null;
  subject: Record<string, string>;
} {
  const route = request.routeOptions.url ?? '';
  const params = (request.params ?? {}) as Record<string, unknown>;
  const id = typeof params.id === 'string' && UUID.test(params.id) ? params.id : null;
  if (!id) return { applicationId: null, subject: {} };
  if (route.startsWith(`${API_PREFIX}/applications/:id`)) return { applicationId: id, subject: {} };
  if (route.startsWith(`${API_PREFIX}/webhooks/:id`)) {
    const deliveryId = params.deliveryId;
    return {
      applicationId: null,
      subject: {
        subscriptionId: id,
        ...(typeof deliveryId === 'string' && deliveryId.length <= 100 ? { deliveryId } : {}),
      },
    };
  }
  return { applicationId: null, subject: {} };
}

/** The authentication of `/api/v1`: one guard per scope, set on each operation. */
export interface ApiGuard {
  for(scope: ApiScope): (request: FastifyRequest) => Promise<void>;
}

export interface ApiV1Options {
  clients: ApiClients;
  operations: ApiOperations;
  /** Per client, from its own `rate_limit_per_minute`. */
  limiter: RateLimiter;
  /** Token requests per address, so a secret cannot be guessed at speed. */
  tokenLimiter: RateLimiter;
  /** The API's capabilities, registered inside the prefix with the guard. */
  capabilities: Array<(api: FastifyInstance, guard: ApiGuard) => Promise<void>>;
}

const tokenRequestSchema = z
  .object({
    grant_type: z.string().describe('Always `client_credentials`.'),
    client_id: z.string().max(200).optional(),
    client_secret: z.string().max(200).optional(),
    scope: z
      .string()
      .max(500)
      .optional()
      .describe('Space-separated; all of the client’s when left out.'),
  })
  .meta({ id: 'TokenRequest' });

const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    scope: z.string(),
  })
  .meta({ id: 'TokenResponse' });

const oauthErrorSchema = z
  .object({ error: z.string(), error_description: z.string().optional() })
  .meta({ id: 'OAuthError' });

const TOKEN_LIMIT = { name: 'api-token:ip', max: 60, windowSeconds: 60 };

/**
 * `/api/v1`: the integrators' API. Errors are problem details, every answer is `no-store`, a
 * bearer token from the client credentials grant opens each operation its scope allows, and
 * every call is in the audit trail under the client's name.
 */
export const apiV1Plugin: FastifyPluginAsync<ApiV1Options> = async (app, options) => {
  const { clients, operations } = options;
  app.decorateRequest('apiClient', null);
  app.decorateRequest('apiCallAudit', null);

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    const refused = reply.statusCode >= 400 ? appErrorAsProblem(reply.statusCode, payload) : null;
    if (!refused) return payload;
    reply.type(PROBLEM_CONTENT_TYPE);
    return JSON.stringify(refused);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    let body: Problem;
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      body = problem(
        error.statusCode,
        error.message,
        error.errors ? problemErrors(error.errors, 'body') : undefined,
      );
    } else if (isZodError(error.validation ?? error) || error.code === 'FST_ERR_VALIDATION') {
      const source = error.validation ?? error;
      const fields = isZodError(source) ? fieldErrors(source) : { _: [error.message] };
      const errors = problemErrors(fields, error.validationContext as 'body' | undefined);
      body = problem(
        400,
        `${INVALID_REQUEST_MESSAGE} ${errors.map((e) => e.detail).join(' ')}`,
        errors,
      );
    } else {
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      body = problem(status, status >= 500 ? GENERIC_SERVER_ERROR_MESSAGE : error.message);
    }
    if (body.status >= 500 && error instanceof HttpError)
      request.log.error({ err: error }, 'request failed');
    return reply.status(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
  });

  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).type(PROBLEM_CONTENT_TYPE).send(problem(404, NOT_FOUND_MESSAGE)),
  );

  const guard: ApiGuard = {
    for(scope) {
      return async (request) => {
        const header = request.headers.authorization ?? '';
        const [kind, token] = header.split(' ');
        if (kind?.toLowerCase() !== 'bearer' || !token)
          throw new HttpError(401, API_MESSAGES.noToken, undefined, {
            'www-authenticate': 'Bearer realm="api"',
          });
        const holder = await clients.holderOf(token);
        if (!holder)
          throw new HttpError(401, API_MESSAGES.badToken, undefined, {
            'www-authenticate': 'Bearer realm="api", error="invalid_token"',
          });
        request.apiClient = holder;
        if (!holder.scopes.includes(scope))
          throw new HttpError(403, API_MESSAGES.scope(scope), undefined, {
            'www-authenticate': `Bearer realm="api", error="insufficient_scope", scope="${scope}"`,
          });
        await options.limiter.consume([
          {
            limit: { name: 'api:client', max: holder.rateLimitPerMinute, windowSeconds: 60 },
            subject: holder.id,
          },
        ]);
        const { operationId, auditAlongside } = request.routeOptions.config;
        const { applicationId, subject } = auditedSubject(request);
        const audited = request.audit.record({
          actor: apiActor(request),
          action: 'api.call',
          applicationId,
          detail: {
            operation: operationId ?? request.routeOptions.url,
            method: request.method,
            ...subject,
          },
        });
        if (!auditAlongside) {
          await audited;
          return;
        }
        // The operation awaits it beside its read; noted here as well, for a call refused before
        // the operation runs (a malformed parameter).
        request.apiCallAudit = audited;
        audited.catch((error: unknown) =>
          request.log.error({ err: error }, 'the audit entry of an API call failed'),
        );
      };
    },
  };

  // The client credentials grant takes a form (RFC 6749 §4.4); JSON is accepted too.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      const form = new URLSearchParams(body as string);
      const values: Record<string, string> = {};
      for (const key of new Set(form.keys())) {
        const all = form.getAll(key);
        if (all.length > 1) {
          done(new HttpError(400, `${key} is given more than once.`), undefined);
          return;
        }
        values[key] = all[0] ?? '';
      }
      done(null, values);
    },
  );

  apiRoute(
    app,
    operations,
    {
      operationId: 'createToken',
      method: 'POST',
      path: '/oauth/token',
      tag: 'Authentication',
      summary: 'Get an access token (OAuth 2.0 client credentials)',
      description:
        'Authenticate with HTTP Basic (client id and secret) or with `client_id` and `client_secret` in the form. The token lives an hour.',
      scope: null,
      body: tokenRequestSchema,
      bodyMediaType: 'application/x-www-form-urlencoded',
      responses: {
        200: { description: 'A bearer token.', schema: tokenResponseSchema },
        400: { description: 'A malformed request or an unknown scope.', schema: oauthErrorSchema },
        401: {
          description: 'The client or its secret is wrong, or it was revoked.',
          schema: oauthErrorSchema,
        },
        429: { description: 'Too many token requests from this address; wait and try again.' },
      },
    },
    async (request) => {
      await options.tokenLimiter.consume([{ limit: TOKEN_LIMIT, subject: request.ip }]);
    },
    async (request, reply) => {
      const oauthError = (status: number, error: string, description: string) => {
        if (status === 401) reply.header('www-authenticate', 'Basic realm="api"');
        return reply
          .status(status)
          .type('application/json')
          .send({ error, error_description: description });
      };
      const body = request.body;
      if (body.grant_type !== 'client_credentials')
        return oauthError(400, 'unsupported_grant_type', 'Only client_credentials is supported.');
      let clientId = body.client_id;
      let secret = body.client_secret;
      const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
      if (basic?.[1]) {
        const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        // RFC 6749 §2.3.1 form-encodes both before joining them.
        const form = new URLSearchParams(
          `id=${decoded.slice(0, colon)}&secret=${decoded.slice(colon + 1)}`,
        );
        if (colon > 0) {
          clientId = form.get('id') ?? undefined;
          secret = form.get('secret') ?? undefined;
        }
      }
      if (!clientId || !secret)
        return oauthError(401, 'invalid_client', 'Authenticate with the client id and secret.');
      let requested: ApiScope[] | null = null;
      if (body.scope !== undefined) {
        const { scopes, unknown } = parseScopeList(body.scope);
        if (unknown.length > 0)
          return oauthError(400, 'invalid_scope', `Unknown scope: ${unknown.join(', ')}.`);
        requested = scopes;
      }
      const issued = await clients.issueToken(clientId, secret, requested);
      if ('error' in issued) {
        if (issued.error === 'invalid_scope')
          return oauthError(
            400,
            'invalid_scope',
            `This client does not hold: ${issued.scopes.join(', ')}.`,
          );
        return oauthError(
          401,
          'invalid_client',
          'The client id or secret is wrong, or the client was revoked.',
        );
      }
      return reply.header('pragma', 'no-cache').send(issued);
    },
  );

  for (const capability of options.capabilities) await capability(app, guard);
};
