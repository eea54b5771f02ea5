import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import { rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import {
  integrationEvents,
  webhookAttempts,
  webhookDeliveries,
  webhookSubscriptions,
} from '../db/schema';
import { type ChangeLogPosition, unreadRows } from '../integration/change-log-store';

export type WebhookSubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

/** An integration event as fan-out reads it. */
export interface IntegrationEventRow {
  seq: number;
  type: string;
  accountId: string;
  data: Record<string, unknown>;
  occurredAt: Date;
}

/** Who may see a subscription: everyone on the console and command line, or one API client. */
export type SubscriptionOwner = { apiClientId: string } | 'any';

function ownedBy(owner: SubscriptionOwner) {
  return owner === 'any' ? undefined : eq(webhookSubscriptions.apiClientId, owner.apiClientId);
}

/** Webhook subscriptions, the deliveries fanned out to them and each attempt to send one. */
export function createWebhooksStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    async insertSubscription(
      values: {
        url: string;
        description: string;
        events: string[];
        scopes: string[];
        secret: string;
        apiClientId: string | null;
        createdByLabel: string;
      },
      tx: Executor = db,
    ): Promise<WebhookSubscriptionRow> {
      // A new subscription starts with the events still to come, never the history before it.
      const [row] = await tx
        .insert(webhookSubscriptions)
        .values({
          ...values,
          eventCursor: sql`coalesce((select max(seq) from integration_events), 0)`,
          eventCursorSnapshot: sql`pg_current_snapshot()::text`,
        })
        .returning();
      if (!row) throw new Error('subscription not inserted');
      return row;
    },

    async listSubscriptions(
      owner: SubscriptionOwner,
      tx: Executor = db,
    ): Promise<WebhookSubscriptionRow[]> {
      return tx
        .select()
        .from(webhookSubscriptions)
        .where(ownedBy(owner))
        .orderBy(asc(webhookSubscriptions.createdAt), asc(webhookSubscriptions.id));
    },

    async subscription(
      id: string,
      owner: SubscriptionOwner,
      tx: Executor = db,
    ): Promise<WebhookSubscriptionRow | null> {
      const [row] = await tx
        .select()
        .from(webhookSubscriptions)
        .where(and(eq(webhookSubscriptions.id, id), ownedBy(owner)));
      return row ?? null;
    },

    async deleteSubscription(
      id: string,
      owner: SubscriptionOwner,
      tx: Executor = db,
    ): Promise<boolean> {
      const rows = await tx
        .delete(webhookSubscriptions)
        .where(and(eq(webhookSubscriptions.id, id), ownedBy(owner)))
        .returning({ id: webhookSubscriptions.id });
      return rows.length > 0;
    },

    /** Disables a subscription still enabled; false when it already was. */
    async disable(id: string, reason: string, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .update(webhookSubscriptions)
        .set({ disabledAt: sql`now()`, disabledReason: reason })
        .where(and(eq(webhookSubscriptions.id, id), isNull(webhookSubscriptions.disabledAt)))
        .returning({ id: webhookSubscriptions.id });
      return rows.length > 0;
    },

    /** Enables a disabled subscription; its waiting deliveries become due at once. */
    async enable(id: string, owner: SubscriptionOwner, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .update(webhookSubscriptions)
        .set({ disabledAt: null, disabledReason: null })
        .where(and(eq(webhookSubscriptions.id, id), ownedBy(owner)))
        .returning({ id: webhookSubscriptions.id });
      if (rows.length === 0) return false;
      await tx
        .update(webhookDeliveries)
        .set({ nextAttemptAt: sql`now()` })
        .where(
          and(eq(webhookDeliveries.subscriptionId, id), eq(webhookDeliveries.status, 'pending')),
        );
      return true;
    },

    /**
     * The enabled subscriptions, each locked for this transaction; one another server is fanning
     * out is skipped, so no event is fanned out twice.
     */
    async claimEnabled(tx: Executor): Promise<WebhookSubscriptionRow[]> {
      return tx
        .select()
        .from(webhookSubscriptions)
        .where(isNull(webhookSubscriptions.disabledAt))
        .orderBy(asc(webhookSubscriptions.id))
        .for('update', { skipLocked: true });
    },

    /**
     * The events of the given types this subscription's position has not read, in order, and
     * the snapshot they were read under (its next position), in one statement so both describe
     * the same moment (decision 057). Events committed late, below the position, come first and
     * all of them; then up to `limit` after it.
     */
    async unreadEvents(
      position: ChangeLogPosition,
      types: readonly string[],
      limit: number,
      tx: Executor = db,
    ): Promise<{ snapshot: string; events: IntegrationEventRow[] }> {
      const e = integrationEvents;
      const { late, after } = unreadRows(e, position);
      const typed = inArray(e.type, types.length > 0 ? [...types] : ['']);
      const columns = sql`${e.seq}::bigint as seq, ${e.type} as type, ${e.accountId} as account_id, ${e.data} as data, ${e.occurredAt} as occurred_at`;
      const lateEvents = late
        ? sql`(select ${columns} from ${e} where ${and(late, typed)})`
        : sql`(select ${columns} from ${e} where false)`;
      const result = await tx.execute(sql`
        with snap as (select pg_current_snapshot()::text as snapshot),
        unread as (
          ${lateEvents}
          union all
          (select ${columns} from ${e} where ${and(after, typed)} order by ${e.seq} limit ${limit})
        )
        select snap.snapshot, unread.* from snap left join unread on true
        order by unread.seq`);
      const rows = rowsOf<{
        snapshot: string;
        seq: string | number | null;
        type: string;
        account_id: string;
        data: Record<string, unknown> | string;
        occurred_at: string | Date;
      }>(result);
      const snapshot = rows[0]?.snapshot;
      if (!snapshot) throw new Error('no snapshot');
      return {
        snapshot: String(snapshot),
        events: rows.flatMap((row) =>
          row.seq === null || row.seq === undefined
            ? []
            : [
                {
                  seq: Number(row.seq),
                  type: row.type,
                  accountId: row.account_id,
                  data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
                  occurredAt: new Date(row.occurred_at),
                },
              ],
        ),
      };
    },

    async insertDeliveries(
      rows: Array<{
        id: string;
        subscriptionId: string;
        eventSeq: number;
        eventType: string;
        accountId: string;
        payload: string;
      }>,
      tx: Executor = db,
    ): Promise<void> {
      if (rows.length === 0) return;
      await tx
        .insert(webhookDeliveries)
        .values(
          rows.map((row) => ({ ...row, status: 'pending' as const, nextAttemptAt: sql`now()` })),
        );
    },

    async advanceCursor(id: string, position: ChangeLogPosition, tx: Executor = db): Promise<void> {
      await tx
        .update(webhookSubscriptions)
        .set({ eventCursor: position.seq, eventCursorSnapshot: position.snapshot })
        .where(eq(webhookSubscriptions.id, id));
    },

    /** Enabled subscriptions with a delivery due by `now`. */
    async subscriptionsDue(now: Date, tx: Executor = db): Promise<string[]> {
      const rows = await tx
        .selectDistinct({ id: webhookDeliveries.subscriptionId })
        .from(webhookDeliveries)
        .innerJoin(
          webhookSubscriptions,
          eq(webhookSubscriptions.id, webhookDeliveries.subscriptionId),
        )
        .where(
          and(
            eq(webhookDeliveries.status, 'pending'),
            lte(webhookDeliveries.nextAttemptAt, now),
            isNull(webhookSubscriptions.disabledAt),
          ),
        );
      return rows.map((row) => row.id);
    },

    /**
     * The next due delivery of an enabled subscription whose application has no earlier delivery
     * still pending (deliveries of one application arrive in order), leased until `leaseUntil`
     * so another worker leaves it alone meanwhile.
     */
    async claimDue(
      subscriptionId: string,
      now: Date,
      leaseUntil: Date,
      tx: Executor = db,
    ): Promise<WebhookDeliveryRow | null> {
      const result = await tx.execute(sql`
        update webhook_deliveries set next_attempt_at = ${leaseUntil}
        where id = (
          select d.id from webhook_deliveries d
          join webhook_subscriptions s on s.id = d.subscription_id and s.disabled_at is null
          where d.subscription_id = ${subscriptionId} and d.status = 'pending'
            and d.next_attempt_at <= ${now}
            and not exists (
              select 1 from webhook_deliveries earlier
              where earlier.subscription_id = d.subscription_id
                and earlier.account_id = d.account_id
                and earlier.status = 'pending'
                and earlier.event_seq < d.event_seq)
          order by d.event_seq
          limit 1
          for update of d skip locked)
        returning id`);
      const [claimed] = rowsOf<{ id: string }>(result);
      if (!claimed) return null;
      const [row] = await tx
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, claimed.id));
      return row ?? null;
    },

    async delivery(
      id: string,
      subscriptionId: string,
      tx: Executor = db,
    ): Promise<WebhookDeliveryRow | null> {
      const [row] = await tx
        .select()
        .from(webhookDeliveries)
        .where(
          and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.subscriptionId, subscriptionId)),
        );
      return row ?? null;
    },

    async deliveryById(id: string, tx: Executor = db): Promise<WebhookDeliveryRow | null> {
      const [row] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
      return row ?? null;
    },

    async recordAttempt(
      attempt: {
        deliveryId: string;
        at: Date;
        statusCode: number | null;
        error: string | null;
        durationMs: number;
        replay: boolean;
      },
      outcome: {
        status: 'pending' | 'delivered' | 'failed';
        nextAttemptAt: Date | null;
        /** False for a replay: it does not use up one of the scheduled attempts. */
        counts: boolean;
      },
      tx: Executor = db,
    ): Promise<WebhookDeliveryRow> {
      await tx.insert(webhookAttempts).values({
        deliveryId: attempt.deliveryId,
        at: attempt.at,
        statusCode: attempt.statusCode,
        error: attempt.error,
        durationMs: attempt.durationMs,
        replay: attempt.replay ? 1 : 0,
      });
      const [row] = await tx
        .update(webhookDeliveries)
        .set({
          status: outcome.status,
          nextAttemptAt: outcome.nextAttemptAt,
          attempts: outcome.counts
            ? sql`${webhookDeliveries.attempts} + 1`
            : webhookDeliveries.attempts,
          lastAttemptAt: attempt.at,
          lastStatusCode: attempt.statusCode,
          lastError: attempt.error,
          ...(outcome.status === 'delivered' ? { deliveredAt: attempt.at } : {}),
        })
        .where(eq(webhookDeliveries.id, attempt.deliveryId))
        .returning();
      if (!row) throw new Error('delivery vanished');
      return row;
    },

    /** A subscription's deliveries, newest first. */
    async deliveries(
      subscriptionId: string,
      limit: number,
      tx: Executor = db,
    ): Promise<WebhookDeliveryRow[]> {
      return tx
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.subscriptionId, subscriptionId))
        .orderBy(desc(webhookDeliveries.eventSeq), desc(webhookDeliveries.createdAt))
        .limit(limit);
    },

    async attemptsOf(deliveryIds: string[], tx: Executor = db): Promise<WebhookAttemptRow[]> {
      if (deliveryIds.length === 0) return [];
      return tx
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, deliveryIds))
        .orderBy(asc(webhookAttempts.id));
    },
  };
}

export type WebhooksStore = ReturnType<typeof createWebhooksStore>;
