import type { FastifyPluginAsync } from 'fastify';
import {
  type ApiClientSecretResponse,
  type ApiClientView,
  apiClientIdParams,
  apiClientUrls,
  createApiClientSchema,
} from '../../shared/integration/api-clients-api';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffSessions, staffOf } from '../staff/staff-sessions';
import { API_CLIENT_MESSAGES, ApiClientError, type ApiClients } from './api-clients';

export interface ApiClientRoutesOptions {
  sessions: StaffSessions;
  clients: ApiClients;
}

/** The answer for a refusal of the clients' rules: a taken name conflicts, the rest is missing. */
function httpErrorOf(error: unknown): unknown {
  if (!(error instanceof ApiClientError)) return error;
  if (error.message === API_CLIENT_MESSAGES.nameTaken) return new HttpError(409, error.message);
  if (error.message === API_CLIENT_MESSAGES.notFound) return new HttpError(404, error.message);
  if (error.message === API_CLIENT_MESSAGES.revoked) return new HttpError(409, error.message);
  return new HttpError(400, error.message);
}

/**
 * Administrators' API clients in the console (`integrations.manage`): the list, a new client,
 * a new secret and revocation. A secret is in one answer only and never stored but as a hash.
 */
export const apiClientRoutes: FastifyPluginAsync<ApiClientRoutesOptions> = async (
  parent,
  { sessions, clients },
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  // The list shows no secret, so it needs the permission but not a fresh second factor, as the
  // team page's list does; every change needs both.
  const readGuard = sessions.guard('integrations.manage', { stepUp: false });
  const changeGuard = sessions.guard('integrations.manage');

  async function clientOf(id: string) {
    const row = await clients.find(id);
    if (!row || row.id !== id) throw new HttpError(404, API_CLIENT_MESSAGES.notFound);
    return row;
  }

  app.get(apiClientUrls.clients, { onRequest: readGuard }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return (await clients.list()) satisfies ApiClientView[];
  });

  app.post(
    apiClientUrls.clients,
    { schema: { body: createApiClientSchema }, onRequest: changeGuard },
    async (request, reply): Promise<ApiClientSecretResponse> => {
      reply.header('cache-control', 'no-store');
      const staff = staffOf(request);
      const made = await clients
        .create({
          name: request.body.name,
          scopes: request.body.scopes,
          createdBy: staff.displayName || staff.email,
          ...(request.body.rate_limit_per_minute
            ? { rateLimitPerMinute: request.body.rate_limit_per_minute }
            : {}),
        })
        .catch((error: unknown) => {
          throw httpErrorOf(error);
        });
      await request.audit.record({
        action: 'api_client.created',
        detail: {
          client_id: made.client.client_id,
          name: made.client.name,
          scopes: made.client.scopes,
          rate_limit_per_minute: made.client.rate_limit_per_minute,
        },
      });
      reply.status(201);
      return { client: made.client, client_secret: made.secret };
    },
  );

  app.post(
    `${apiClientUrls.clients}/:clientId/rotate`,
    { schema: { params: apiClientIdParams }, onRequest: changeGuard },
    async (request, reply): Promise<ApiClientSecretResponse> => {
      reply.header('cache-control', 'no-store');
      const row = await clientOf(request.params.clientId);
      const rotated = await clients.rotate(row.id).catch((error: unknown) => {
        throw httpErrorOf(error);
      });
      await request.audit.record({
        action: 'api_client.secret_rotated',
        detail: { client_id: row.clientId, name: row.name },
      });
      return { client: rotated.client, client_secret: rotated.secret };
    },
  );

  app.post(
    `${apiClientUrls.clients}/:clientId/revoke`,
    { schema: { params: apiClientIdParams }, onRequest: changeGuard },
    async (request, reply): Promise<ApiClientView> => {
      reply.header('cache-control', 'no-store');
      const row = await clientOf(request.params.clientId);
      // Revoking twice changes nothing and is not recorded again.
      if (row.revokedAt) return clients.revoke(row.id);
      const revoked = await clients.revoke(row.id);
      await request.audit.record({
        action: 'api_client.revoked',
        detail: { client_id: row.clientId, name: row.name },
      });
      return revoked;
    },
  );
};
