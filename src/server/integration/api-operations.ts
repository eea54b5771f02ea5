import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteGenericInterface,
} from 'fastify';
import type { ZodType, z } from 'zod';
import type { ApiScope } from '../../shared/integration/api-scopes';
import type { ZodTypeProvider } from '../http/zod-validation';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The `/api/v1` operation a route serves, for the audit trail. */
    operationId?: string;
    /** Its audit entry is written while it reads (`ApiOperationSpec.auditAlongside`). */
    auditAlongside?: boolean;
  }
  interface FastifyRequest {
    /** The audit entry of an `auditAlongside` call, being written; null otherwise. */
    apiCallAudit: Promise<void> | null;
  }
}

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One operation of `/api/v1`, described once: the route validates with these zod schemas and
 * the OpenAPI document is generated from them, so the published description cannot drift.
 */
export interface ApiOperationSpec<
  Params extends ZodType = ZodType,
  Query extends ZodType = ZodType,
  Body extends ZodType = ZodType,
> {
  operationId: string;
  method: ApiMethod;
  /** Below `/api/v1`, in OpenAPI's form: `/applications/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** The scope a token needs; null for the token endpoint itself. */
  scope: ApiScope | null;
  params?: Params;
  query?: Query;
  body?: Body;
  /** The body's media type when it is not JSON (the token endpoint's form). */
  bodyMediaType?: string;
  /**
   * A read whose audit entry is written at the same time as the read instead of before it: the
   * answer waits for both, and fails if the entry was not written. Only for operations that
   * write no entries of their own, so the trail's order cannot change.
   */
  auditAlongside?: boolean;
  /** Success and documented error answers; errors are `Problem` unless a schema says otherwise. */
  responses: Record<
    number,
    { description: string; schema?: ZodType; mediaType?: string; headers?: Record<string, string> }
  >;
}

/** Every operation registered, in order: the OpenAPI document reads this list. */
export interface ApiOperations {
  readonly list: readonly ApiOperationSpec[];
  add(spec: ApiOperationSpec): void;
}

export function createApiOperations(): ApiOperations {
  const list: ApiOperationSpec[] = [];
  return {
    list,
    add(spec) {
      if (list.some((known) => known.operationId === spec.operationId))
        throw new Error(`operation ${spec.operationId} is registered twice`);
      list.push(spec);
    },
  };
}

/** `/applications/{id}` as Fastify writes it: `/applications/:id`. */
export function fastifyPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

type Infer<S> = S extends ZodType ? z.output<S> : undefined;

export interface ApiRequestTypes<P, Q, B> extends RouteGenericInterface {
  Params: Infer<P>;
  Querystring: Infer<Q>;
  Body: Infer<B>;
}

/**
 * Registers an operation on a plugin of `/api/v1` (below the prefix) and in the list the OpenAPI
 * document is made from. `guard` is the API's authentication for the operation's scope
 * (`ApiGuard.for`), run before the body is even parsed.
 */
export function apiRoute<P extends ZodType, Q extends ZodType, B extends ZodType>(
  app: FastifyInstance,
  operations: ApiOperations,
  spec: ApiOperationSpec<P, Q, B>,
  guard: onRequestHookHandler,
  handler: (
    request: FastifyRequest<ApiRequestTypes<P, Q, B>>,
    reply: FastifyReply,
  ) => Promise<unknown>,
): void {
  operations.add(spec as ApiOperationSpec);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: spec.method,
    url: fastifyPath(spec.path),
    schema: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
    },
    config: { operationId: spec.operationId, auditAlongside: spec.auditAlongside ?? false },
    onRequest: guard,
    handler: (spec.auditAlongside ? withCallAudit(handler) : handler) as never,
  });
}

/**
 * The handler, answering only once the call's audit entry (begun by the guard) is written: an
 * entry that failed fails the call, whatever the handler found, so nothing is read unaudited.
 * The handler must return its answer rather than send it.
 */
function withCallAudit<Request extends FastifyRequest>(
  handler: (request: Request, reply: FastifyReply) => Promise<unknown>,
) {
  return async (request: Request, reply: FastifyReply): Promise<unknown> => {
    const [answer, audit] = await Promise.allSettled([
      handler(request, reply),
      request.apiCallAudit ?? Promise.reject(new Error('the call has no audit entry')),
    ]);
    if (audit.status === 'rejected') throw audit.reason;
    if (answer.status === 'rejected') throw answer.reason;
    return answer.value;
  };
}
