import {
  type ApiScope,
  WEBHOOK_EVENTS,
  type WebhookEventType,
} from '../../shared/integration/api-scopes';

/**
 * The fields each event's payload may carry and the scope each needs. A field the triggers add
 * later stays out until it is listed here, so nothing reaches a receiver by accident.
 */
const PAYLOAD_FIELDS: Record<WebhookEventType, Record<string, ApiScope>> = {
  'application.submitted': {},
  'application.updated': { fields: 'applications:read' },
  'checklist.changed': { item: 'applications:read', state: 'applications:read' },
  'decision.released': { code: 'decisions:read' },
  'offer.replied': { reply: 'decisions:read' },
  'coursework.updated': { answer_key: 'applications:read' },
};

/** Whether a subscription with these scopes may receive the event at all. */
export function eventAllowed(type: string, scopes: readonly string[]): type is WebhookEventType {
  return (
    Object.hasOwn(WEBHOOK_EVENTS, type) &&
    scopes.includes(WEBHOOK_EVENTS[type as WebhookEventType].scope)
  );
}

/** The body sent for an event: built once when fanned out, then the same bytes on every attempt. */
export function webhookPayload(
  event: {
    type: WebhookEventType;
    accountId: string;
    data: Record<string, unknown>;
    occurredAt: Date;
  },
  scopes: readonly string[],
): string {
  const allowed = PAYLOAD_FIELDS[event.type];
  const data: Record<string, unknown> = { application_id: event.accountId };
  for (const [field, scope] of Object.entries(allowed))
    if (scopes.includes(scope) && event.data[field] !== undefined) data[field] = event.data[field];
  return JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), data });
}
