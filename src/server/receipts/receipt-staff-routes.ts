import type { FastifyPluginAsync } from 'fastify';
import type { ReceiptVerification } from '../../shared/staff/application-api';
import { applicationIdParams, STAFF_API } from '../../shared/staff/staff-api';
import type { AppDatabase } from '../db/database';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import type { StaffSessions } from '../staff/staff-sessions';
import type { StorageDriver } from '../storage/storage';
import { verifyReceipt } from './receipts-service';

export interface ReceiptStaffRoutesOptions {
  db: AppDatabase;
  storage: StorageDriver;
  sessions: StaffSessions;
}

/**
 * Whether what is stored now is what was submitted: the fingerprint recomputed from the stored
 * answers and document PDFs against the receipt's. 404 for an application without a receipt.
 */
export const receiptStaffRoutes: FastifyPluginAsync<ReceiptStaffRoutesOptions> = async (
  parent,
  context,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    `${STAFF_API}/applications/:applicationId/receipt/verify`,
    {
      onRequest: context.sessions.guard('applications.read'),
      schema: { params: applicationIdParams },
    },
    async (request, reply): Promise<ReceiptVerification> => {
      const verified = await verifyReceipt(
        context.db,
        context.storage,
        request.params.applicationId,
      );
      if (!verified) throw new HttpError(404, NOT_FOUND_MESSAGE);
      // Recomputing reads the stored answers and every submitted document: a read of the file.
      await request.audit.record({
        action: 'receipt.verify',
        applicationId: request.params.applicationId,
        detail: { matches: verified.matches },
      });
      reply.header('cache-control', 'private, no-store');
      return verified;
    },
  );
};
