import { and, count, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { AuditEventView } from '../../shared/staff/staff-api';
import type { AppDatabase } from '../db/database';
import { applications, auditEvents } from '../db/schema';
import type { AuditAction, AuditRow } from './audit-trail';

/** What the console filters the trail by; every filter given must match. */
export interface AuditFilters {
  /** A staff member's email or id, or a read-only link's id. */
  actor?: string;
  /** An application (its account id). */
  application?: string;
  action?: AuditAction;
  /** Whole days in UTC, both included: YYYY-MM-DD. */
  from?: string;
  to?: string;
}

const DAY_MS = 86_400_000;

/** The first instant of a UTC day given as YYYY-MM-DD. */
export function startOfDay(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

function conditions(filters: AuditFilters, before?: number, upTo?: number): SQL | undefined {
  const actor = filters.actor?.trim();
  return and(
    actor
      ? or(
          eq(auditEvents.actorId, actor),
          eq(sql`lower(${auditEvents.actorLabel})`, actor.toLowerCase()),
        )
      : undefined,
    filters.application ? eq(auditEvents.applicationId, filters.application) : undefined,
    filters.action ? eq(auditEvents.action, filters.action) : undefined,
    filters.from ? gte(auditEvents.at, startOfDay(filters.from)) : undefined,
    filters.to
      ? lt(auditEvents.at, new Date(startOfDay(filters.to).getTime() + DAY_MS))
      : undefined,
    before !== undefined ? lt(auditEvents.seq, before) : undefined,
    upTo !== undefined ? lte(auditEvents.seq, upTo) : undefined,
  );
}

export function auditEventView(row: AuditRow): AuditEventView {
  return {
    seq: row.seq,
    at: row.at.toISOString(),
    actor_type: row.actorType,
    actor_id: row.actorId,
    actor_label: row.actorLabel,
    action: row.action,
    application_id: row.applicationId,
    detail: row.detail,
    ip: row.ip,
  };
}

/** Reading the audit trail: pages for the console and every matching entry for an export. */
export function createAuditStore(db: AppDatabase) {
  /**
   * Matching entries, newest first, older than `before` when given and no newer than `upTo`;
   * asking for one more than a page tells the caller whether another page follows.
   */
  function page(
    filters: AuditFilters,
    options: { limit: number; before?: number; upTo?: number },
  ): Promise<AuditRow[]> {
    return db
      .select()
      .from(auditEvents)
      .where(conditions(filters, options.before, options.upTo))
      .orderBy(desc(auditEvents.seq))
      .limit(options.limit);
  }

  return {
    page,

    /**
     * The applicants' names ("First Last") of the applications a page of entries is about, by
     * application id; an application removed since (retention) has none.
     */
    async applicantNames(ids: readonly string[]): Promise<Map<string, string>> {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      const rows = await db
        .select({
          id: applications.accountId,
          first: sql<string | null>`${applications.answers}->>'first_name'`,
          last: sql<string | null>`${applications.answers}->>'last_name'`,
        })
        .from(applications)
        .where(inArray(applications.accountId, unique));
      const names = new Map<string, string>();
      for (const row of rows) {
        const name = [row.first, row.last]
          .map((part) => part?.trim() ?? '')
          .filter((part) => part !== '')
          .join(' ');
        if (name !== '') names.set(row.id, name);
      }
      return names;
    },

    /** How many entries match, up to and including entry `upTo`. */
    async count(filters: AuditFilters, upTo: number): Promise<number> {
      const [row] = await db
        .select({ count: count() })
        .from(auditEvents)
        .where(conditions(filters, undefined, upTo));
      return row?.count ?? 0;
    },

    /** The newest entry's number and hash (null while the trail is empty). */
    async newest(): Promise<{ seq: number; hash: string } | null> {
      const [row] = await db
        .select({ seq: auditEvents.seq, hash: auditEvents.hash })
        .from(auditEvents)
        .orderBy(desc(auditEvents.seq))
        .limit(1);
      return row ?? null;
    },

    /**
     * Every matching entry up to `upTo`, newest first, read a batch at a time. Entries are never
     * changed or removed, so a fixed `upTo` keeps the set the same however long reading takes.
     */
    async *all(filters: AuditFilters, upTo: number, batch = 500): AsyncGenerator<AuditRow> {
      let before: number | undefined;
      for (;;) {
        const rows = await page(filters, { limit: batch, before, upTo });
        yield* rows;
        const last = rows.at(-1);
        if (rows.length < batch || !last) return;
        before = last.seq;
      }
    },
  };
}

export type AuditStore = ReturnType<typeof createAuditStore>;
