import type { FastifyBaseLogger } from 'fastify';
import type { Receipt } from '../../shared/api/status';
import { COMPLETION_ROUTE } from '../../shared/routes';
import type { ReceiptVerification } from '../../shared/staff/application-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import type { Mailer } from '../mail/mailer';
import type { StorageDriver } from '../storage/storage';
import { cycleOf } from './confirmation-number';
import { fingerprintOf, MISSING_PDF, sha256Hex } from './receipt-fingerprint';
import { receiptMessage } from './receipt-mail';
import {
  findReceipt,
  type ReceiptRow,
  storedApplication,
  submittedDocuments,
} from './receipts-store';

/** The application as the submit stores it, and its converted documents as read with it. */
export interface SubmittedApplication {
  accountId: string;
  answers: Record<string, unknown>;
  tabs: Record<string, unknown>;
  addAnother: Record<string, unknown>;
  /** Those received after a submit are left out of what is fingerprinted. */
  documents: { answerKey: string; pdfKey: string | null; receivedAfterSubmit: boolean }[];
}

/** What a receipt says but its number, worked out before the submit's statement. */
export interface ReceiptDraft {
  prefix: string;
  cycle: string;
  fingerprint: string;
  /** Each submitted document's answer key and the SHA-256 of its converted PDF. */
  documents: Record<string, string>;
}

/** What the submit's statement adds: the number taken in the cycle's sequence. */
export interface IssuedReceipt {
  number: string;
  sequence: number;
}

/** What the submit route needs: the receipt drafted before its statement, mailed after commit. */
export interface SubmitReceipts {
  /**
   * The fingerprint and the cycle. Reads each submitted document's PDF from storage, outside any
   * transaction; a storage error throws (the submit is refused, to retry).
   */
  draft(submitted: SubmittedApplication): Promise<ReceiptDraft>;
  /** Mails the receipt the submit committed; never throws (a failure is logged). */
  mailAfterCommit(receipt: Receipt, email: string, requestOrigin: string): void;
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
async function hashesOf(
  storage: StorageDriver,
  documents: readonly { answerKey: string; pdfKey: string | null }[],
): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  const read = await Promise.all(
    documents.map((document) => (document.pdfKey ? storage.get(document.pdfKey) : null)),
  );
  documents.forEach((document, n) => {
    const bytes = read[n];
    hashes[document.answerKey] = bytes ? sha256Hex(bytes) : MISSING_PDF;
  });
  return hashes;
}

async function documentHashes(
  tx: Executor,
  storage: StorageDriver,
  accountId: string,
): Promise<Record<string, string>> {
  return hashesOf(storage, await submittedDocuments(tx, accountId));
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
    async draft(submitted) {
      const documents = await hashesOf(
        storage,
        submitted.documents.filter((document) => !document.receivedAfterSubmit),
      );
      return {
        prefix: tenant.receipt_prefix,
        cycle: cycleOf(submitted.answers.entry_term, new Date().getUTCFullYear()),
        fingerprint: fingerprintOf({ ...submitted, documents }),
        documents,
      };
    },
    mailAfterCommit(receipt, email, requestOrigin) {
      try {
        const site = options.publicUrl?.replace(/\/+$/, '') ?? requestOrigin;
        mailer.send(receiptMessage(tenant, email, receipt, `${site}${COMPLETION_ROUTE}`));
      } catch (error) {
        log.error({ err: error }, 'could not send the receipt after submit');
      }
    },
    async find(accountId) {
      const row = await findReceipt(db, accountId);
      return row ? receiptView(row) : null;
    },
  };
}

export type Receipts = ReturnType<typeof createReceipts>;
