import type { FastifyReply } from 'fastify';
import { sendPdf } from '../http/send-pdf';

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
