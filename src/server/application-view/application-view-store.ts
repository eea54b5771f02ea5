import { and, eq, sql } from 'drizzle-orm';
import {
  APPLICATION_STATUSES,
  type ApplicationStatus,
} from '../../shared/staff/application-list-api';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import {
  accounts,
  applicationSisIds,
  applications,
  staffApplicationViews,
  staffSavedViews,
} from '../db/schema';

export interface ApplicationHeader {
  id: string;
  email: string;
  status: ApplicationStatus;
  submittedAt: Date | null;
  updatedAt: Date;
  answers: Record<string, string | boolean>;
  tabs: Record<string, string>;
  addAnother: Record<string, number>;
  /** The student information system's id its integration wrote back, and who wrote it when. */
  sis: { sisId: string; setByLabel: string; setAt: Date } | null;
}

/** The one-application page's reads, and the saved views of the list. */
export function createApplicationViewStore(db: AppDatabase) {
  return {
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** The application of an account, with the account's address; null when there is none. */
    async find(accountId: string, tx: Executor = db): Promise<ApplicationHeader | null> {
      const [row] = await tx
        .select({
          id: applications.accountId,
          email: accounts.email,
          listStatus: applications.listStatus,
          submittedAt: applications.submittedAt,
          updatedAt: applications.updatedAt,
          answers: applications.answers,
          tabs: applications.tabs,
          addAnother: applications.addAnother,
          sisId: applicationSisIds.sisId,
          sisSetBy: applicationSisIds.setByLabel,
          sisSetAt: applicationSisIds.setAt,
        })
        .from(applications)
        .innerJoin(accounts, eq(accounts.id, applications.accountId))
        .leftJoin(applicationSisIds, eq(applicationSisIds.accountId, applications.accountId))
        .where(eq(applications.accountId, accountId));
      if (!row) return null;
      const { listStatus, sisId, sisSetBy, sisSetAt, ...rest } = row;
      return {
        ...rest,
        status: APPLICATION_STATUSES[listStatus] ?? 'started',
        sis:
          sisId === null || sisSetBy === null || sisSetAt === null
            ? null
            : { sisId, setByLabel: sisSetBy, setAt: sisSetAt },
      };
    },

    /**
     * That this member opened the application now: the list's "new since I last looked" compares
     * the application's changes with it. One row per member and application, moved forward.
     */
    async recordView(staffId: string, accountId: string, tx: Executor = db): Promise<void> {
      await tx
        .insert(staffApplicationViews)
        .values({ staffId, accountId, viewedAt: sql`now()` })
        .onConflictDoUpdate({
          target: [staffApplicationViews.staffId, staffApplicationViews.accountId],
          set: { viewedAt: sql`excluded.viewed_at` },
        });
    },

    async exists(accountId: string, tx: Executor = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: applications.accountId })
        .from(applications)
        .where(eq(applications.accountId, accountId));
      return row !== undefined;
    },

    savedViews(staffId: string, tx: Executor = db) {
      return tx
        .select({
          id: staffSavedViews.id,
          name: staffSavedViews.name,
          query: staffSavedViews.query,
          createdAt: staffSavedViews.createdAt,
        })
        .from(staffSavedViews)
        .where(eq(staffSavedViews.staffId, staffId))
        .orderBy(sql`lower(${staffSavedViews.name})`);
    },

    /** Adds a view; null when the member already has one of this name (any case). */
    async addSavedView(
      staffId: string,
      view: { name: string; query: string },
      tx: Executor = db,
    ): Promise<{ id: string; name: string; query: string; createdAt: Date } | null> {
      const [row] = await tx
        .insert(staffSavedViews)
        .values({ staffId, name: view.name, query: view.query })
        .onConflictDoNothing()
        .returning({
          id: staffSavedViews.id,
          name: staffSavedViews.name,
          query: staffSavedViews.query,
          createdAt: staffSavedViews.createdAt,
        });
      return row ?? null;
    },

    async countSavedViews(staffId: string, tx: Executor = db): Promise<number> {
      const [row] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(staffSavedViews)
        .where(eq(staffSavedViews.staffId, staffId));
      return row?.count ?? 0;
    },

    /** Removes one of the member's views; false when the member has no view with this id. */
    async deleteSavedView(staffId: string, id: string, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .delete(staffSavedViews)
        .where(and(eq(staffSavedViews.id, id), eq(staffSavedViews.staffId, staffId)))
        .returning({ id: staffSavedViews.id });
      return rows.length > 0;
    },
  };
}

export type ApplicationViewStore = ReturnType<typeof createApplicationViewStore>;
