import type { FastifyReply } from 'fastify';

/** A safe download name: the uploaded name's stem in plain ASCII, with .pdf. */
export function pdfDownloadName(fileName: string): string {
  const stem = fileName.replace(/\.[^.]*$/, '');
  const ascii = stem.replace(/[^A-Za-z0-9._ -]/g, '_').trim();
  return `${ascii || 'document'}.pdf`;
}

/**
 * Sends a PDF (a converted document or the whole application) as a download only its reader
 * keeps: an attachment (never shown in the page's origin), nosniff, and never stored by a browser
 * or a proxy, since it holds an applicant's data.
 */
export function sendPdf(reply: FastifyReply, pdf: Uint8Array, downloadName: string): FastifyReply {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${downloadName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(pdf));
}
