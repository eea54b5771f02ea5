import {
  type WebhookCreateBody,
  type WebhookCreatedView,
  type WebhookDeliveryView,
  type WebhookSubscriptionView,
  webhookUrls,
} from '../../../shared/integration/webhooks-api';
import { deleteJson, getJson, postJson } from '../../data/http-client';

/** Webhook subscriptions (src/shared/integration/webhooks-api.ts has the contract). */
export const webhooksCalls = {
  subscriptions: () => getJson<WebhookSubscriptionView[]>(webhookUrls.subscriptions),
  create: (body: WebhookCreateBody) =>
    postJson<WebhookCreatedView>(webhookUrls.subscriptions, body),
  remove: (id: string) => deleteJson<unknown>(webhookUrls.subscription(id)),
  enable: (id: string) => postJson<WebhookSubscriptionView>(webhookUrls.enable(id)),
  deliveries: (id: string) => getJson<WebhookDeliveryView[]>(webhookUrls.deliveries(id)),
  replay: (id: string, deliveryId: string) =>
    postJson<WebhookDeliveryView>(webhookUrls.replay(id, deliveryId)),
};

export const webhooksKeys = {
  subscriptions: ['webhooks', 'subscriptions'],
  deliveries: (id: string) => ['webhooks', 'deliveries', id],
} as const;
