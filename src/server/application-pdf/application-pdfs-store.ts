import { and, eq, inArray, sql } from 'drizzle-orm';
import { type AppDatabase, rowsOf } from '../db/database';
import type { Executor } from '../db/executor';
import { accounts, applicationPdfs, applications, documentAnswers } from '../db/schema';

type PdfStatus = (typeof applicationPdfs.$inferSelect)['status'];

const PENDING = ['UNPROCESSED', 'IN_PROGRESS'] as const;

/** What the PDF of an application is made from, as stored. */
export interface PdfSourceApplication {
  answers: unknown;
  tabs: (typeof applications.$inferSelect)['tabs'];
  addAnother: (typeof applications.$inferSelect)['addAnother'];
  submittedAt: Date | null;
  /** As text: a JavaScript Date would drop the microseconds the up-to-date check compares. */
  source: string;
  email: string;
}

/**
 * Each application's PDF row. A run claims a row by its update time and finishes it only while
 * that still holds, so a run another one overtook changes nothing.
 */
export function createApplicationPdfsStore(db: AppDatabase) {
  return {
    /**
     * Marks the PDF wanted unless one is up to date or on its way (a failure is retried after
     * `failedRetryMinutes`); true when it should be queued.
     */
    async markWanted(
      accountId: string,
      failedRetryMinutes: number,
      tx: Executor = db,
    ): Promise<boolean> {
      const rows = rowsOf<{ status: string }>(
        await tx.execute(sql`
      insert into ${applicationPdfs} (account_id, status) values (${accountId}, 'UNPROCESSED')
      on conflict (account_id) do update
        set status = 'UNPROCESSED', message = null, updated_at = clock_timestamp()
        where ${applicationPdfs.status} in ('COMPLETED', 'FAILED') and (
          ${applicationPdfs.sourceUpdatedAt} is distinct from
            (select ${applications.updatedAt} from ${applications}
             where ${applications.accountId} = ${accountId})
          or (${applicationPdfs.status} = 'FAILED' and ${applicationPdfs.updatedAt} <
                clock_timestamp() - make_interval(mins => ${failedRetryMinutes})))
      returning status`),
      );
      return rows.length > 0;
    },

    async status(
      accountId: string,
      tx: Executor = db,
    ): Promise<{ status: PdfStatus; message: string | null } | null> {
      const [row] = await tx
        .select({ status: applicationPdfs.status, message: applicationPdfs.message })
        .from(applicationPdfs)
        .where(eq(applicationPdfs.accountId, accountId));
      return row ?? null;
    },

    /** Marks a pending row IN_PROGRESS; its new update time as text, the claim's stamp. */
    async claim(accountId: string, tx: Executor = db): Promise<string | null> {
      const [claim] = await tx
        .update(applicationPdfs)
        .set({ status: 'IN_PROGRESS', updatedAt: sql`clock_timestamp()` })
        .where(
          and(
            eq(applicationPdfs.accountId, accountId),
            inArray(applicationPdfs.status, [...PENDING]),
          ),
        )
        .returning({ stamp: sql<string>`${applicationPdfs.updatedAt}::text` });
      return claim?.stamp ?? null;
    },

    async sourceApplication(
      accountId: string,
      tx: Executor = db,
    ): Promise<PdfSourceApplication | null> {
      const [application] = await tx
        .select({
          answers: applications.answers,
          tabs: applications.tabs,
          addAnother: applications.addAnother,
          submittedAt: applications.submittedAt,
          source: sql<string>`${applications.updatedAt}::text`,
          email: accounts.email,
        })
        .from(applications)
        .innerJoin(accounts, eq(accounts.id, applications.accountId))
        .where(eq(applications.accountId, accountId));
      return application ?? null;
    },

    async documents(accountId: string, tx: Executor = db) {
      return tx
        .select({
          answerKey: documentAnswers.answerKey,
          fileName: documentAnswers.fileName,
          fileSize: documentAnswers.fileSize,
          status: documentAnswers.status,
          pdfKey: documentAnswers.pdfKey,
        })
        .from(documentAnswers)
        .where(eq(documentAnswers.accountId, accountId));
    },

    async pdfKey(accountId: string, tx: Executor = db): Promise<string | null> {
      const [previous] = await tx
        .select({ pdfKey: applicationPdfs.pdfKey })
        .from(applicationPdfs)
        .where(eq(applicationPdfs.accountId, accountId));
      return previous?.pdfKey ?? null;
    },

    /**
     * Finishes the row if the claim of `stamp` still holds; null when it does not, else whether
     * the application changed while the PDF was being made.
     */
    async complete(
      accountId: string,
      stamp: string,
      pdfKey: string,
      source: string | null,
      tx: Executor = db,
    ): Promise<{ stale: boolean } | null> {
      const [finished] = rowsOf<{ stale: boolean }>(
        await tx.execute(sql`
      update ${applicationPdfs}
      set status = 'COMPLETED', pdf_key = ${pdfKey}, message = null,
        source_updated_at = ${source}::timestamptz,
        updated_at = clock_timestamp()
      where ${applicationPdfs.accountId} = ${accountId} and ${applicationPdfs.status} = 'IN_PROGRESS'
        and ${applicationPdfs.updatedAt} = ${stamp}::timestamptz
      returning ${applicationPdfs.sourceUpdatedAt} is distinct from
        (select ${applications.updatedAt} from ${applications}
         where ${applications.accountId} = ${accountId}) as stale`),
      );
      return finished ?? null;
    },

    /** Marks a pending row FAILED for the application's current version. */
    async markFailed(accountId: string, message: string, tx: Executor = db): Promise<void> {
      await tx
        .update(applicationPdfs)
        .set({
          status: 'FAILED',
          message,
          // Failed for this version of the application: a change, or time, tries again.
          sourceUpdatedAt: sql`(select ${applications.updatedAt} from ${applications}
          where ${applications.accountId} = ${accountId})`,
          updatedAt: sql`clock_timestamp()`,
        })
        .where(
          and(
            eq(applicationPdfs.accountId, accountId),
            inArray(applicationPdfs.status, [...PENDING]),
          ),
        );
    },

    async pending(tx: Executor = db): Promise<string[]> {
      const rows = await tx
        .select({ accountId: applicationPdfs.accountId })
        .from(applicationPdfs)
        .where(inArray(applicationPdfs.status, [...PENDING]));
      return rows.map((row) => row.accountId);
    },

    /** The stored PDF's key of a COMPLETED row, with the application's answers. */
    async completed(
      accountId: string,
      tx: Executor = db,
    ): Promise<{ pdfKey: string | null; answers: unknown } | null> {
      const [row] = await tx
        .select({ pdfKey: applicationPdfs.pdfKey, answers: applications.answers })
        .from(applicationPdfs)
        .leftJoin(applications, eq(applications.accountId, applicationPdfs.accountId))
        .where(
          and(eq(applicationPdfs.accountId, accountId), eq(applicationPdfs.status, 'COMPLETED')),
        );
      return row ?? null;
    },
  };
}
