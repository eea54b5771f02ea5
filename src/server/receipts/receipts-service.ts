import type { FastifyBaseLogger } from 'fastify';
import type { Receipt } from '../../shared/api/status';
import { COMPLETION_ROUTE } from '../../shared/routes';
import type { ReceiptVerification } from '../../shared/staff/application-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import type { Mailer } from '../mail/mailer';
import type { StorageDriver } from '../storage/storage';
import { confirmationNumber, cycleOf } from './confirmation-number';
import { fingerprintOf, MISSING_PDF, sha256Hex } from './receipt-fingerprint';
import { receiptMessage } from './receipt-mail';
import {
  findReceipt,
  insertReceipt,
  nextSequence,
  type ReceiptRow,
  storedApplication,
  submittedDocuments,
} from './receipts-store';

/** The application as the submit stores it, inside the submit's transaction. */
export interface SubmittedApplication {
  accountId: string;
  answers: Record<string, unknown>;
  tabs: Record<string, unknown>;
  addAnother: Record<string, unknown>;
}

/** What the submit route needs: a receipt in its transaction, and the mail once it commits. */
export interface SubmitReceipts {
  /** Numbers and fingerprints the submit; throws (rolling the submit back) if it cannot. */
  issue(tx: Executor, submitted: SubmittedApplication): Promise<Receipt>;
  /** Mails the receipt; never throws (a failure is logged, the submit stands). */
  mailAfterCommit(accountId: string, requestOrigin: string): Promise<void>;
}

export interface ReceiptsOptions {
  db: AppDatabase;
  storage: StorageDriver;
  tenant: TenantConfig;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Links in the mail start here, or at the origin the submit came to. */
  publicUrl?: string;
}

export function receiptView(row: ReceiptRow): Receipt {
  return {
    number: row.number,
    submitted_at: row.submittedAt.toISOString(),
    fingerprint: row.fingerprint,
  };
}

/**
 * The SHA-256 of each submitted document's converted PDF, read from storage. A PDF missing from
 * storage is recorded as `missing`: the fingerprint then says that nothing was there, and a PDF
 * that appears later does not verify. A storage error throws (the submit is refused, to retry).
 */
async function documentHashes(
  tx: Executor,
  storage: StorageDriver,
  accountId: string,
): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const document of await submittedDocuments(tx, accountId)) {
    const bytes = document.pdfKey ? await storage.get(document.pdfKey) : null;
    hashes[document.answerKey] = bytes ? sha256Hex(bytes) : MISSING_PDF;
  }
  return hashes;
}

/**
 * Recomputes an application's fingerprint from what is stored now (its answers and the PDFs of
 * its submitted documents) and compares it with its receipt's; null before submit.
 */
export async function verifyReceipt(
  db: AppDatabase,
  storage: StorageDriver,
  accountId: string,
): Promise<ReceiptVerification | null> {
  const receipt = await findReceipt(db, accountId);
  const application = await storedApplication(db, accountId);
  if (!receipt || !application) return null;
  const recomputed = fingerprintOf({
    answers: application.answers,
    tabs: application.tabs,
    addAnother: application.addAnother,
    documents: await documentHashes(db, storage, accountId),
  });
  return {
    matches: recomputed === receipt.fingerprint,
    fingerprint: receipt.fingerprint,
    recomputed,
  };
}

export function createReceipts(options: ReceiptsOptions): SubmitReceipts & {
  find(accountId: string): Promise<Receipt | null>;
} {
  const { db, storage, tenant, mailer, log } = options;

  return {
    async issue(tx, submitted) {
      const documents = await documentHashes(tx, storage, submitted.accountId);
      const fingerprint = fingerprintOf({ ...submitted, documents });
      const cycle = cycleOf(submitted.answers.entry_term, new Date().getUTCFullYear());
      // Last: the cycle's row stays locked until the submit commits.
      const sequence = await nextSequence(tx, cycle);
      const row = await insertReceipt(tx, {
        accountId: submitted.accountId,
        number: confirmationNumber(tenant.receipt_prefix, cycle, sequence),
        cycle,
        sequence,
        fingerprint,
        documents,
      });
      return receiptView(row);
    },

    async mailAfterCommit(accountId, requestOrigin) {
      try {
        const [receipt, application] = await Promise.all([
          findReceipt(db, accountId),
          storedApplication(db, accountId),
        ]);
        if (!receipt || !application) return;
        const site = options.publicUrl?.replace(/\/+$/, '') ?? requestOrigin;
        mailer.send(
          receiptMessage(
            tenant,
            application.email,
            receiptView(receipt),
            `${site}${COMPLETION_ROUTE}`,
          ),
        );
      } catch (error) {
        log.error({ err: error, accountId }, 'could not send the receipt after submit');
      }
    },

    async find(accountId) {
      const row = await findReceipt(db, accountId);
      return row ? receiptView(row) : null;
    },
  };
}

export type Receipts = ReturnType<typeof createReceipts>;
