import type { FastifyPluginAsync } from 'fastify';
import { APPLICATION_PDF_URL } from '../../shared/api/application-pdf';
import type { Sessions } from '../accounts/sessions';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { ApplicationPdfs } from './application-pdfs';
import { sendApplicationPdf } from './send-application-pdf';

export interface ApplicationPdfRoutesOptions {
  sessions: Sessions;
  pdfs: ApplicationPdfs;
}

/**
 * The applicant's own application PDF: its status (starting a new one when needed) and the
 * download once made. Both answer only for the signed-in account.
 */
export const applicationPdfRoutes: FastifyPluginAsync<ApplicationPdfRoutesOptions> = async (
  app,
  options,
) => {
  const { pdfs } = options;
  await pdfs.register();
  app.addHook('onRequest', options.sessions.requireSession.bind(options.sessions));
  // A restart leaves nothing waiting: rows still UNPROCESSED or IN_PROGRESS are queued again.
  app.addHook('onReady', async () => {
    await pdfs.recover();
  });

  app.get('/api/pdf', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return pdfs.request(request.accountId);
  });

  app.get(APPLICATION_PDF_URL, async (request, reply) => {
    const found = await pdfs.download(request.accountId);
    if (!found) throw new HttpError(404, NOT_FOUND_MESSAGE);
    return sendApplicationPdf(reply, found);
  });
};
