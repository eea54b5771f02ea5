import type { FastifyPluginAsync } from 'fastify';
import { RECEIPT_URL, type Receipt } from '../../shared/api/status';
import type { Sessions } from '../accounts/sessions';
import type { Receipts } from './receipts-service';

export interface ReceiptRoutesOptions {
  sessions: Sessions;
  receipts: Pick<Receipts, 'find'>;
}

/** The applicant's own receipt, for /completion: null until the application is submitted. */
export const receiptRoutes: FastifyPluginAsync<ReceiptRoutesOptions> = async (app, options) => {
  app.addHook('onRequest', options.sessions.requireSession.bind(options.sessions));

  app.get(RECEIPT_URL, async (request, reply): Promise<Receipt | null> => {
    reply.header('cache-control', 'no-store');
    return options.receipts.find(request.accountId);
  });
};
