import {
  API_SCOPE_NAMES,
  type ApiScope,
  isApiScope,
  WEBHOOK_EVENTS,
  type WebhookEventType,
} from '../../shared/integration/api-scopes';
import {
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookCreatedView,
  type WebhookDeliveryView,
  type WebhookSubscriptionView,
} from '../../shared/integration/webhooks-api';
import type { AuditActor, AuditTrail } from '../audit/audit-trail';
import type { Executor } from '../db/executor';
import { HttpError } from '../http/http-error';
import {
  type PrivateNetworks,
  type Resolver,
  resolveWebhookHost,
  UnsafeWebhookAddressError,
} from './ssrf-guard';
import type { WebhookDelivery } from './webhook-delivery';
import { newWebhookSecret } from './webhook-signing';
import type {
  SubscriptionOwner,
  WebhookAttemptRow,
  WebhookDeliveryRow,
  WebhookSubscriptionRow,
  WebhooksStore,
} from './webhooks-store';

/** Who changes a subscription, and from where when a request did it. */
export interface AuditBy {
  actor: AuditActor;
  ip?: string | null;
}

export interface NewSubscription {
  url: string;
  events: readonly string[];
  scopes: readonly string[];
  description?: string;
  /** The API client making it, null from the console or the command line. */
  apiClientId: string | null;
  createdBy: string;
}

/** A refused subscription or address: a 400 on the API and the console, exit 1 on the command line. */
export class WebhookInputError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

export class WebhookNotFoundError extends HttpError {
  constructor(what: 'subscription' | 'delivery') {
    super(404, what === 'subscription' ? 'No such webhook subscription.' : 'No such delivery.');
  }
}

export interface WebhooksServiceOptions {
  store: WebhooksStore;
  delivery: WebhookDelivery;
  audit: Pick<AuditTrail, 'record'>;
  /** Production: https only, and public addresses only. */
  production: boolean;
  /** Non-public networks production may reach, over http too (WEBHOOK_PRIVATE_NETWORKS). */
  privateNetworks?: PrivateNetworks;
  resolve?: Resolver;
}

export function subscriptionView(row: WebhookSubscriptionRow): WebhookSubscriptionView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events.filter((e): e is WebhookEventType => Object.hasOwn(WEBHOOK_EVENTS, e)),
    scopes: row.scopes.filter(isApiScope),
    created_by: row.createdByLabel,
    created_at: row.createdAt.toISOString(),
    state: row.disabledAt ? 'disabled' : 'active',
    disabled_at: row.disabledAt?.toISOString() ?? null,
    disabled_reason: row.disabledReason,
  };
}

export function deliveryView(
  row: WebhookDeliveryRow,
  attempts: readonly WebhookAttemptRow[],
): WebhookDeliveryView {
  return {
    id: row.id,
    event_type: row.eventType as WebhookEventType,
    application_id: row.accountId,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    payload: row.payload,
    attempt_log: attempts.map((attempt) => ({
      at: attempt.at.toISOString(),
      status_code: attempt.statusCode,
      error: attempt.error,
      duration_ms: attempt.durationMs,
      replay: attempt.replay === 1,
    })),
  };
}

/** The scopes a list of events needs, in canonical order. */
export function scopesFor(events: readonly WebhookEventType[]): ApiScope[] {
  const needed = new Set<string>(events.map((event) => WEBHOOK_EVENTS[event].scope));
  return API_SCOPE_NAMES.filter((scope) => needed.has(scope));
}

/** Subscriptions as the console, the API and the command line manage them, each change audited. */
export function createWebhooksService(options: WebhooksServiceOptions) {
  const { store, audit } = options;

  async function checkUrl(text: string): Promise<string> {
    const url = text.trim();
    if (url.length === 0 || url.length > WEBHOOK_URL_MAX_LENGTH)
      throw new WebhookInputError(`The URL must be 1 to ${WEBHOOK_URL_MAX_LENGTH} characters.`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new WebhookInputError('The URL is not a valid address.');
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      throw new WebhookInputError(
        'The URL must start with https:// (or http:// outside production).',
      );
    const plainHttp = parsed.protocol !== 'https:';
    if (options.production && plainHttp && !options.privateNetworks?.size)
      throw new WebhookInputError('The URL must start with https://.');
    if (parsed.username || parsed.password)
      throw new WebhookInputError('The URL must not carry a user name or password.');
    try {
      await resolveWebhookHost(parsed.hostname, options.production, options.resolve, {
        privateNetworks: options.privateNetworks,
        plainHttp,
      });
    } catch (error) {
      if (error instanceof UnsafeWebhookAddressError) throw new WebhookInputError(error.message);
      throw error;
    }
    return url;
  }

  function checkEvents(events: readonly string[], scopes: readonly string[]): WebhookEventType[] {
    const unknown = events.filter((event) => !Object.hasOwn(WEBHOOK_EVENTS, event));
    if (unknown.length > 0) throw new WebhookInputError(`Unknown event: ${unknown.join(', ')}.`);
    const known = [...new Set(events as readonly WebhookEventType[])];
    if (known.length === 0) throw new WebhookInputError('Choose at least one event.');
    const outside = known.filter((event) => !scopes.includes(WEBHOOK_EVENTS[event].scope));
    if (outside.length > 0)
      throw new WebhookInputError(
        `These events need a scope the subscription does not have: ${outside
          .map((event) => `${event} needs ${WEBHOOK_EVENTS[event].scope}`)
          .join('; ')}.`,
      );
    return known;
  }

  async function mustFind(id: string, owner: SubscriptionOwner): Promise<WebhookSubscriptionRow> {
    const found = /^[0-9a-f-]{36}$/i.test(id) ? await store.subscription(id, owner) : null;
    if (!found) throw new WebhookNotFoundError('subscription');
    return found;
  }

  return {
    checkUrl,

    async create(input: NewSubscription, by: AuditBy): Promise<WebhookCreatedView> {
      const unknownScopes = input.scopes.filter((scope) => !isApiScope(scope));
      if (unknownScopes.length > 0)
        throw new WebhookInputError(`Unknown scope: ${unknownScopes.join(', ')}.`);
      const events = checkEvents(input.events, input.scopes);
      const url = await checkUrl(input.url);
      const secret = newWebhookSecret();
      const row = await store.transaction(async (tx) => {
        const inserted = await store.insertSubscription(
          {
            url,
            description: (input.description ?? '').trim(),
            events,
            scopes: [...input.scopes],
            secret,
            apiClientId: input.apiClientId,
            createdByLabel: input.createdBy,
          },
          tx,
        );
        await audit.record(
          {
            actor: by.actor,
            ip: by.ip ?? null,
            action: 'webhook.subscription_created',
            detail: { subscription_id: inserted.id, url, events },
          },
          tx,
        );
        return inserted;
      });
      return { ...subscriptionView(row), secret };
    },

    async list(owner: SubscriptionOwner): Promise<WebhookSubscriptionView[]> {
      return (await store.listSubscriptions(owner)).map(subscriptionView);
    },

    async get(id: string, owner: SubscriptionOwner): Promise<WebhookSubscriptionView> {
      return subscriptionView(await mustFind(id, owner));
    },

    async remove(id: string, owner: SubscriptionOwner, by: AuditBy): Promise<void> {
      const found = await mustFind(id, owner);
      await store.transaction(async (tx: Executor) => {
        if (!(await store.deleteSubscription(id, owner, tx)))
          throw new WebhookNotFoundError('subscription');
        await audit.record(
          {
            actor: by.actor,
            ip: by.ip ?? null,
            action: 'webhook.subscription_deleted',
            detail: { subscription_id: id, url: found.url },
          },
          tx,
        );
      });
    },

    async enable(
      id: string,
      owner: SubscriptionOwner,
      by: AuditBy,
    ): Promise<WebhookSubscriptionView> {
      const found = await mustFind(id, owner);
      if (!found.disabledAt) return subscriptionView(found);
      await store.transaction(async (tx) => {
        await store.enable(id, owner, tx);
        await audit.record(
          {
            actor: by.actor,
            ip: by.ip ?? null,
            action: 'webhook.subscription_enabled',
            detail: { subscription_id: id, url: found.url },
          },
          tx,
        );
      });
      return subscriptionView(await mustFind(id, owner));
    },

    async disable(id: string, owner: SubscriptionOwner, reason: string, by: AuditBy) {
      const found = await mustFind(id, owner);
      await store.transaction(async (tx) => {
        if (await store.disable(id, reason, tx))
          await audit.record(
            {
              actor: by.actor,
              ip: by.ip ?? null,
              action: 'webhook.subscription_disabled',
              detail: { subscription_id: id, url: found.url, reason },
            },
            tx,
          );
      });
      return subscriptionView(await mustFind(id, owner));
    },

    async deliveries(
      id: string,
      owner: SubscriptionOwner,
      limit: number,
    ): Promise<WebhookDeliveryView[]> {
      await mustFind(id, owner);
      const rows = await store.deliveries(id, limit);
      const attempts = await store.attemptsOf(rows.map((row) => row.id));
      return rows.map((row) =>
        deliveryView(
          row,
          attempts.filter((attempt) => attempt.deliveryId === row.id),
        ),
      );
    },

    /**
     * Sends a delivery again now, same id and body, whatever its state: an extra attempt in the
     * log, marked as a replay. `subscriptionId` null finds it by its id alone (command line).
     */
    async replay(
      subscriptionId: string | null,
      deliveryId: string,
      owner: SubscriptionOwner,
      by: AuditBy,
    ): Promise<WebhookDeliveryView> {
      const delivery =
        subscriptionId === null
          ? await store.deliveryById(deliveryId)
          : await store.delivery(deliveryId, (await mustFind(subscriptionId, owner)).id);
      if (!delivery) throw new WebhookNotFoundError('delivery');
      const subscription = await mustFind(delivery.subscriptionId, owner);
      await audit.record({
        actor: by.actor,
        ip: by.ip ?? null,
        action: 'webhook.delivery_replayed',
        applicationId: delivery.accountId,
        detail: { subscription_id: subscription.id, delivery_id: delivery.id },
      });
      const updated = await options.delivery.attempt(delivery, subscription, true);
      const attempts = await store.attemptsOf([updated.id]);
      return deliveryView(updated, attempts);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
