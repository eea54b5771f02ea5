import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { APPLICATION_PDF_URL } from '../../shared/api/application-pdf';
import type { Sessions } from '../accounts/sessions';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import { sendPdf } from '../http/send-pdf';
import type { ApplicationPdfs } from './application-pdfs';

export interface ApplicationPdfRoutesOptions {
  sessions: Sessions;
  pdfs: ApplicationPdfs;
}

/** `Lopez-Maria` style: the applicant's name in plain ASCII, for the downloaded file's name. */
export function applicationPdfFileName(applicantName: string): string {
  const ascii = applicantName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return ascii ? `transfer-application-${ascii}.pdf` : 'transfer-application.pdf';
}

/** The application PDF as a download only its reader keeps: attachment, nosniff, no-store. */
export function sendApplicationPdf(
  reply: FastifyReply,
  found: { pdf: Uint8Array; applicantName: string },
  disposition: 'attachment' | 'inline' = 'attachment',
): FastifyReply {
  return sendPdf(reply, found.pdf, applicationPdfFileName(found.applicantName), disposition);
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
