import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  WEBHOOK_DELIVERY_LOG_LIMIT,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookDeliverySchema,
  webhookSubscriptionSchema,
} from '../../shared/integration/webhooks-api';
import type { ApiOperations } from '../integration/api-operations';
import { apiRoute } from '../integration/api-operations';
import { type ApiGuard, apiActor } from '../integration/api-v1-plugin';
import type { WebhooksService } from './webhooks-service';

// Path parameters stay inline, without a component id: the document lists each parameter from
// the schema's properties, which a reference to a component would hide.
const idParams = z.strictObject({ id: z.uuid().describe('The subscription’s id.') });
const deliveryParams = z.strictObject({
  id: z.uuid().describe('The subscription’s id.'),
  deliveryId: z.string().min(1).max(100).describe('The delivery’s `webhook-id`.'),
});

const NOT_FOUND = { description: 'No such subscription of this client.' };
// A path parameter out of shape is refused before anything is looked up.
const BAD_ID = { description: 'The id is not a subscription’s id.' };

/**
 * `/api/v1/webhooks`: an integrator's client manages its own subscriptions (`webhooks:manage`),
 * each seeing what the token's scopes allow. Another client's subscription is a 404, as if it
 * did not exist.
 */
export function webhooksApiCapability(service: WebhooksService, operations: ApiOperations) {
  return async (api: FastifyInstance, guard: ApiGuard): Promise<void> => {
    const manage = guard.for('webhooks:manage');
    const ownerOf = (request: { apiClient: { id: string } | null }) => {
      if (!request.apiClient) throw new Error('behind the API guard');
      return { apiClientId: request.apiClient.id };
    };

    apiRoute(
      api,
      operations,
      {
        operationId: 'createWebhook',
        method: 'POST',
        path: '/webhooks',
        tag: 'Webhooks',
        summary: 'Subscribe to events',
        description:
          'The subscription sees what the token’s scopes allow: each event needs its scope. The answer carries the signing secret, this once.',
        scope: 'webhooks:manage',
        body: webhookCreateSchema,
        responses: {
          201: {
            description: 'The new subscription and its secret.',
            schema: webhookCreatedSchema,
          },
          400: { description: 'An unknown event, an event outside the scopes, or a refused URL.' },
        },
      },
      manage,
      async (request, reply) => {
        const holder = request.apiClient;
        if (!holder) throw new Error('behind the API guard');
        const created = await service.create(
          {
            url: request.body.url,
            events: request.body.events,
            description: request.body.description,
            scopes: holder.scopes,
            apiClientId: holder.id,
            createdBy: holder.name,
          },
          { actor: apiActor(request), ip: request.ip },
        );
        return reply.status(201).send(webhookCreatedSchema.parse(created));
      },
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'listWebhooks',
        method: 'GET',
        path: '/webhooks',
        tag: 'Webhooks',
        summary: 'This client’s subscriptions',
        scope: 'webhooks:manage',
        responses: {
          200: {
            description: 'Every subscription of this client.',
            schema: z
              .array(webhookSubscriptionSchema)
              .describe('This client’s subscriptions.')
              .meta({ id: 'WebhookSubscriptionList' }),
          },
        },
      },
      manage,
      async (request) => service.list(ownerOf(request)),
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'getWebhook',
        method: 'GET',
        path: '/webhooks/{id}',
        tag: 'Webhooks',
        summary: 'One subscription',
        scope: 'webhooks:manage',
        params: idParams,
        responses: {
          200: { description: 'The subscription.', schema: webhookSubscriptionSchema },
          400: BAD_ID,
          404: NOT_FOUND,
        },
      },
      manage,
      async (request) => service.get(request.params.id, ownerOf(request)),
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'deleteWebhook',
        method: 'DELETE',
        path: '/webhooks/{id}',
        tag: 'Webhooks',
        summary: 'Unsubscribe',
        description: 'Removes the subscription with its delivery log; nothing more is sent.',
        scope: 'webhooks:manage',
        params: idParams,
        responses: { 204: { description: 'Removed.' }, 400: BAD_ID, 404: NOT_FOUND },
      },
      manage,
      async (request, reply) => {
        await service.remove(request.params.id, ownerOf(request), {
          actor: apiActor(request),
          ip: request.ip,
        });
        return reply.status(204).send();
      },
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'listWebhookDeliveries',
        method: 'GET',
        path: '/webhooks/{id}/deliveries',
        tag: 'Webhooks',
        summary: 'A subscription’s delivery log',
        description: `The latest ${WEBHOOK_DELIVERY_LOG_LIMIT} deliveries, newest first, each with every attempt.`,
        scope: 'webhooks:manage',
        params: idParams,
        responses: {
          200: {
            description: 'The deliveries.',
            schema: z
              .array(webhookDeliverySchema)
              .describe('Deliveries, newest first.')
              .meta({ id: 'WebhookDeliveryList' }),
          },
          400: BAD_ID,
          404: NOT_FOUND,
        },
      },
      manage,
      async (request) =>
        service.deliveries(request.params.id, ownerOf(request), WEBHOOK_DELIVERY_LOG_LIMIT),
    );

    apiRoute(
      api,
      operations,
      {
        operationId: 'replayWebhookDelivery',
        method: 'POST',
        path: '/webhooks/{id}/deliveries/{deliveryId}/replay',
        tag: 'Webhooks',
        summary: 'Send a delivery again',
        description:
          'Sends it now with the same `webhook-id` and body (a new timestamp and signature); the attempt is logged as a replay.',
        scope: 'webhooks:manage',
        params: deliveryParams,
        responses: {
          200: { description: 'The delivery after the attempt.', schema: webhookDeliverySchema },
          400: { description: 'The subscription’s id or the delivery’s is out of shape.' },
          404: { description: 'No such subscription of this client, or no such delivery.' },
        },
      },
      manage,
      async (request) =>
        service.replay(request.params.id, request.params.deliveryId, ownerOf(request), {
          actor: apiActor(request),
          ip: request.ip,
        }),
    );
  };
}
