import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  WEBHOOK_DELIVERY_LOG_LIMIT,
  webhookCreateSchema,
  webhookUrls,
} from '../../shared/integration/webhooks-api';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffSessions, staffActor, staffOf } from '../staff/staff-sessions';
import { scopesFor, type WebhooksService } from './webhooks-service';

export interface WebhooksStaffRoutesOptions {
  sessions: StaffSessions;
  service: WebhooksService;
}

const idParams = z.strictObject({ id: z.uuid() });
const deliveryParams = z.strictObject({ id: z.uuid(), deliveryId: z.string().min(1).max(100) });
const ANY = 'any' as const;
const base = webhookUrls.subscriptions;

/**
 * Webhook subscriptions in the console (`integrations.manage`, with a fresh second factor): all
 * of them, whoever made them. A subscription made here may see what its events need.
 */
export const webhooksStaffRoutes: FastifyPluginAsync<WebhooksStaffRoutesOptions> = async (
  parent,
  { sessions, service },
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const guard = sessions.guard('integrations.manage');
  // Reading the list and the log shows no secret: a session is enough, as for the staff list.
  const read = sessions.guard('integrations.manage', { stepUp: false });
  const actorOf = (request: Parameters<typeof staffOf>[0]) => ({
    actor: staffActor(staffOf(request)),
    ip: request.ip,
  });

  app.get(webhookUrls.subscriptions, { onRequest: read }, async () => service.list(ANY));

  app.post(
    webhookUrls.subscriptions,
    { onRequest: guard, schema: { body: webhookCreateSchema } },
    async (request, reply) => {
      const staff = staffOf(request);
      const created = await service.create(
        {
          url: request.body.url,
          events: request.body.events,
          description: request.body.description,
          scopes: scopesFor(request.body.events),
          apiClientId: null,
          createdBy: staff.displayName || staff.email,
        },
        actorOf(request),
      );
      return reply.status(201).send(created);
    },
  );

  app.delete(
    `${base}/:id`,
    { onRequest: guard, schema: { params: idParams } },
    async (request, reply) => {
      await service.remove(request.params.id, ANY, actorOf(request));
      return reply.status(204).send();
    },
  );

  app.post(
    `${base}/:id/enable`,
    { onRequest: guard, schema: { params: idParams } },
    async (request) => service.enable(request.params.id, ANY, actorOf(request)),
  );

  app.get(
    `${base}/:id/deliveries`,
    { onRequest: read, schema: { params: idParams } },
    async (request) => service.deliveries(request.params.id, ANY, WEBHOOK_DELIVERY_LOG_LIMIT),
  );

  app.post(
    `${base}/:id/deliveries/:deliveryId/replay`,
    { onRequest: guard, schema: { params: deliveryParams } },
    async (request) =>
      service.replay(request.params.id, request.params.deliveryId, ANY, actorOf(request)),
  );
};
