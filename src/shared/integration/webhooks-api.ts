import { z } from 'zod';
import { STAFF_API } from '../routes';
import { API_SCOPE_NAMES, WEBHOOK_EVENT_TYPES } from './api-scopes';

export const WEBHOOK_URL_MAX_LENGTH = 2_000;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;
/** The deliveries a log shows at once, newest first. */
export const WEBHOOK_DELIVERY_LOG_LIMIT = 100;

/** The console's calls for webhook subscriptions (`integrations.manage`). */
export const webhookUrls = {
  /** GET: every subscription. POST: a new one (the answer carries its secret, once). */
  subscriptions: `${STAFF_API}/webhooks`,
  /** DELETE: removes it and its log. */
  subscription: (id: string) => `${STAFF_API}/webhooks/${encodeURIComponent(id)}`,
  /** POST: enabled again, resuming from where it stopped. */
  enable: (id: string) => `${STAFF_API}/webhooks/${encodeURIComponent(id)}/enable`,
  /** GET: the delivery log, newest first, with every attempt. */
  deliveries: (id: string) => `${STAFF_API}/webhooks/${encodeURIComponent(id)}/deliveries`,
  /** POST: sent again now, same id and body. */
  replay: (id: string, deliveryId: string) =>
    `${STAFF_API}/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/replay`,
} as const;

const noNul = (value: string) => !value.includes('\u0000');

/** A new subscription as the console and the API send it: nothing but these keys. */
export const webhookCreateSchema = z
  .strictObject({
    url: z
      .string()
      .trim()
      .min(1)
      .max(WEBHOOK_URL_MAX_LENGTH)
      .refine(noNul, 'must not contain NUL')
      .describe('Where to POST events: http(s), https only in production.'),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1)
      .max(WEBHOOK_EVENT_TYPES.length)
      .describe('The events to receive.'),
    description: z
      .string()
      .trim()
      .max(WEBHOOK_DESCRIPTION_MAX_LENGTH)
      .refine(noNul, 'must not contain NUL')
      .optional()
      .describe('What the subscription is for, for people.'),
  })
  .describe('A new subscription: where to send which events.')
  .meta({ id: 'WebhookCreate' });
export type WebhookCreateBody = z.input<typeof webhookCreateSchema>;

export const webhookAttemptSchema = z
  .object({
    at: z.string().describe('When the attempt was made (ISO 8601).'),
    status_code: z.number().int().nullable().describe('The HTTP status received, if any.'),
    error: z.string().nullable().describe('Why the attempt failed, if it did.'),
    duration_ms: z.number().int().describe('How long the attempt took.'),
    replay: z.boolean().describe('Whether this attempt was a replay asked for by someone.'),
  })
  .describe('One attempt to send a delivery.')
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttemptView = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z
  .object({
    id: z.string().describe('The `webhook-id` header: the same on every attempt and replay.'),
    event_type: z.enum(WEBHOOK_EVENT_TYPES).describe('The event delivered.'),
    application_id: z.string().describe('The application the event is about.'),
    status: z.enum(['pending', 'delivered', 'failed']).describe('Where the delivery stands.'),
    attempts: z.number().int().describe('Scheduled attempts made so far (replays not counted).'),
    next_attempt_at: z.string().nullable().describe('When it is tried next, while pending.'),
    last_attempt_at: z.string().nullable().describe('The latest attempt.'),
    last_status_code: z.number().int().nullable().describe('The latest HTTP status received.'),
    last_error: z.string().nullable().describe('Why the latest attempt failed.'),
    created_at: z.string().describe('When the event was fanned out to this subscription.'),
    delivered_at: z.string().nullable().describe('When a receiver first answered 2xx.'),
    payload: z.string().describe('The exact body sent (JSON text).'),
    attempt_log: z.array(webhookAttemptSchema).describe('Every attempt, oldest first.'),
  })
  .describe('One event sent to one subscription, with every attempt.')
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;

export const webhookSubscriptionSchema = z
  .object({
    id: z.string().describe('The subscription’s id.'),
    url: z.string().describe('Where events are sent.'),
    description: z.string().describe('What it is for.'),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).describe('The events it receives.'),
    scopes: z
      .array(z.enum(API_SCOPE_NAMES))
      .describe('What it may see: fields needing another scope are left out of payloads.'),
    created_by: z.string().describe('Who made it.'),
    created_at: z.string().describe('When (ISO 8601).'),
    state: z.enum(['active', 'disabled']).describe('Disabled subscriptions receive nothing.'),
    disabled_at: z.string().nullable().describe('When it was disabled.'),
    disabled_reason: z.string().nullable().describe('Why it was disabled.'),
  })
  .describe('A webhook subscription; its secret is never shown after it is made.')
  .meta({ id: 'WebhookSubscription' });
export type WebhookSubscriptionView = z.infer<typeof webhookSubscriptionSchema>;

export const webhookCreatedSchema = webhookSubscriptionSchema
  .extend({
    secret: z
      .string()
      .describe(
        'The signing secret (`whsec_…`), shown this once: keep it to verify the `webhook-signature` header.',
      ),
  })
  .describe('A subscription just made, with its signing secret, shown this once.')
  .meta({ id: 'WebhookCreated' });
export type WebhookCreatedView = z.infer<typeof webhookCreatedSchema>;
