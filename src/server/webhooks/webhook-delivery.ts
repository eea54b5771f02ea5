import { z } from 'zod';
import { isWebhookEventType } from '../../shared/integration/api-scopes';
import type { AuditTrail } from '../audit/audit-trail';
import type { JobQueue } from '../jobs/job-queue';
import type { JobLog } from '../jobs/job-runner';
import { type Periodic, startPeriodic } from '../jobs/periodic';
import { eventAllowed, webhookPayload } from './webhook-payloads';
import type { WebhookSender } from './webhook-sender';
import { newDeliveryId, signedHeaders } from './webhook-signing';
import type { WebhookDeliveryRow, WebhookSubscriptionRow, WebhooksStore } from './webhooks-store';

/**
 * Waits after each failed attempt: eight attempts over more than 27 hours, so a receiver that is
 * down for a day still gets every event.
 */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];
export const FAN_OUT_INTERVAL_MS = 1_000;
export const DELIVER_JOB = 'webhook-deliver';
/** Events read per subscription per tick; the next tick goes on from there. */
const FAN_OUT_BATCH = 500;
/** Long enough for a send (10 s) to finish before another worker may take the delivery. */
const LEASE_MS = 60_000;
/** How long one job sends a subscription's due deliveries before leaving the rest to the next. */
const DELIVER_BUDGET_MS = 30_000;

export const SYSTEM_ACTOR = { type: 'system', label: 'webhooks' } as const;

export interface DisabledNotice {
  subscription: WebhookSubscriptionRow;
  reason: string;
}

export interface WebhookDeliveryOptions {
  store: WebhooksStore;
  send: WebhookSender;
  audit: Pick<AuditTrail, 'record'>;
  /** Mail to every active administrator that a subscription was disabled. */
  notifyDisabled: (notice: DisabledNotice) => Promise<void>;
  userAgent: string;
  now?: () => Date;
  schedule?: readonly number[];
}

/**
 * Fan-out and delivery: events become one delivery per matching subscription, and deliveries
 * are sent, retried on the schedule, and a subscription whose retries run out is disabled.
 */
export function createWebhookDelivery(options: WebhookDeliveryOptions) {
  const { store, send } = options;
  const now = options.now ?? (() => new Date());
  const schedule = options.schedule ?? RETRY_SCHEDULE_MS;

  /** New events to deliveries, per subscription, the cursor moved in the same transaction. */
  async function fanOut(): Promise<void> {
    await store.transaction(async (tx) => {
      for (const subscription of await store.claimEnabled(tx)) {
        const types = subscription.events.filter((type) => eventAllowed(type, subscription.scopes));
        const position = {
          seq: subscription.eventCursor,
          snapshot: subscription.eventCursorSnapshot,
        };
        const { snapshot, events } = await store.unreadEvents(position, types, FAN_OUT_BATCH, tx);
        await store.insertDeliveries(
          events.flatMap((event) =>
            isWebhookEventType(event.type)
              ? [
                  {
                    id: newDeliveryId(),
                    subscriptionId: subscription.id,
                    eventSeq: event.seq,
                    eventType: event.type,
                    accountId: event.accountId,
                    payload: webhookPayload({ ...event, type: event.type }, subscription.scopes),
                  },
                ]
              : [],
          ),
          tx,
        );
        const seq = Math.max(position.seq, ...events.map((event) => event.seq));
        await store.advanceCursor(subscription.id, { seq, snapshot }, tx);
      }
    });
  }

  /** One request for a delivery, logged; `replay` attempts are extra and change no schedule. */
  async function attempt(
    delivery: WebhookDeliveryRow,
    subscription: WebhookSubscriptionRow,
    replay: boolean,
  ): Promise<WebhookDeliveryRow> {
    const at = now();
    const outcome = await send(
      subscription.url,
      {
        ...signedHeaders(subscription.secret, delivery.id, at, delivery.payload),
        'user-agent': options.userAgent,
      },
      delivery.payload,
    );
    if (replay) {
      return store.recordAttempt(
        { deliveryId: delivery.id, at, ...outcome, replay: true },
        {
          status: outcome.delivered ? 'delivered' : delivery.status,
          nextAttemptAt: outcome.delivered ? null : delivery.nextAttemptAt,
          counts: false,
        },
      );
    }
    const made = delivery.attempts + 1;
    const wait = schedule[made - 1];
    const exhausted = !outcome.delivered && wait === undefined;
    const updated = await store.recordAttempt(
      { deliveryId: delivery.id, at, ...outcome, replay: false },
      {
        status: outcome.delivered ? 'delivered' : exhausted ? 'failed' : 'pending',
        nextAttemptAt:
          outcome.delivered || exhausted ? null : new Date(now().getTime() + (wait ?? 0)),
        counts: true,
      },
    );
    if (exhausted) {
      const reason = `Delivery ${delivery.id} (${delivery.eventType}) failed ${made} times over ${describeSchedule(schedule)}; the last: ${outcome.error ?? `HTTP ${outcome.statusCode}`}.`;
      if (await store.disable(subscription.id, reason)) {
        await options.audit.record({
          actor: SYSTEM_ACTOR,
          action: 'webhook.subscription_disabled',
          applicationId: delivery.accountId,
          detail: { subscription_id: subscription.id, url: subscription.url, reason },
        });
        await options.notifyDisabled({ subscription, reason });
      }
    }
    return updated;
  }

  /** Sends a subscription's due deliveries, one application's in order. */
  async function deliverDue(subscriptionId: string): Promise<void> {
    // A backlog drains in one job rather than a batch a tick; the budget lets other jobs in.
    const until = Date.now() + DELIVER_BUDGET_MS;
    while (Date.now() < until) {
      const at = now();
      const delivery = await store.claimDue(subscriptionId, at, new Date(at.getTime() + LEASE_MS));
      if (!delivery) return;
      const subscription = await store.subscription(subscriptionId, 'any');
      if (!subscription || subscription.disabledAt) return;
      await attempt(delivery, subscription, false);
    }
  }

  return { fanOut, deliverDue, attempt, now };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;

function describeSchedule(schedule: readonly number[]): string {
  const hours = schedule.reduce((sum, wait) => sum + wait, 0) / 3_600_000;
  return hours >= 1 ? `${Math.round(hours)} hours` : `${Math.round(hours * 60)} minutes`;
}

const deliverPayload = z.strictObject({ subscriptionId: z.string() });

/**
 * On servers that run jobs: the tick (fan out, then queue a job per subscription with something
 * due), and the job that sends. The job is deduplicated per subscription, so one subscription's
 * deliveries go out one at a time, in order.
 */
export async function startWebhookDelivery(
  queue: JobQueue,
  delivery: WebhookDelivery,
  store: WebhooksStore,
  log: JobLog,
  runJobs: boolean,
  intervalMs = FAN_OUT_INTERVAL_MS,
): Promise<{ start(): void; stop(): Promise<void>; kick(): Promise<void> }> {
  await queue.register(
    DELIVER_JOB,
    async (payload: { subscriptionId: string }) => {
      await delivery.deliverDue(payload.subscriptionId);
    },
    {
      payload: deliverPayload,
      // The budget, plus one last send that may take its whole 10 s timeout.
      timeoutMs: DELIVER_BUDGET_MS + 60_000,
      retries: 0,
      concurrency: runJobs ? 4 : 0,
      dedupeKey: (payload) => payload.subscriptionId,
    },
  );
  let periodic: Periodic | undefined;
  const tick = async () => {
    await delivery.fanOut();
    for (const id of await store.subscriptionsDue(delivery.now()))
      await queue.enqueue(DELIVER_JOB, { subscriptionId: id });
  };
  return {
    start() {
      if (runJobs && !periodic)
        periodic = startPeriodic(log, 'webhooks not fanned out', intervalMs, tick);
    },
    async stop() {
      await periodic?.stop();
    },
    kick: tick,
  };
}
