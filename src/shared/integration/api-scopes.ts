/**
 * What an integrator's client may do, per resource and action. A token carries a subset of its
 * client's scopes; every operation of `/api/v1` names the one it needs, and a webhook
 * subscription sees only the events and fields its scopes allow.
 */
export const API_SCOPES = {
  'applications:read':
    'Read submitted applications, their answers, checklist, coursework and documents',
  'applications:write': "Write back the student information system's id and mark checklist items",
  'decisions:read': 'Read released decisions and applicants’ replies',
  'webhooks:manage': 'Create, list and delete webhook subscriptions and read their deliveries',
} as const;
export type ApiScope = keyof typeof API_SCOPES;
export const API_SCOPE_NAMES = Object.keys(API_SCOPES) as ApiScope[];

export function isApiScope(value: string): value is ApiScope {
  return Object.hasOwn(API_SCOPES, value);
}

/**
 * The events a webhook can subscribe to, each with the scope a subscription needs to receive it.
 * Events exist for submitted applications only; a decision's event is written at its release.
 */
export const WEBHOOK_EVENTS = {
  'application.submitted': {
    scope: 'applications:read',
    description: 'An application was submitted.',
  },
  'application.updated': {
    scope: 'applications:read',
    description: "A submitted application changed (the student information system's id).",
  },
  'checklist.changed': {
    scope: 'applications:read',
    description: 'A checklist item of a submitted application changed state.',
  },
  'decision.released': {
    scope: 'decisions:read',
    description: 'A decision was released to the applicant.',
  },
  'offer.replied': {
    scope: 'decisions:read',
    description: 'The applicant accepted or declined an offer.',
  },
  'coursework.updated': {
    scope: 'applications:read',
    description: 'The applicant added coursework after submitting.',
  },
} as const satisfies Record<string, { scope: ApiScope; description: string }>;
export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return Object.hasOwn(WEBHOOK_EVENTS, value);
}

/**
 * Reads a scope list as a client, a token request or a command gives it (space or comma
 * separated): the known scopes in their canonical order, and the unknown ones to name in an error.
 */
export function parseScopeList(text: string): { scopes: ApiScope[]; unknown: string[] } {
  const words = text
    .split(/[\s,]+/)
    .map((word) => word.trim())
    .filter(Boolean);
  const unknown = words.filter((word) => !isApiScope(word));
  const wanted = new Set(words);
  return { scopes: API_SCOPE_NAMES.filter((scope) => wanted.has(scope)), unknown };
}
