import type { FastifyReply } from 'fastify';

/** A safe download name: the uploaded name's stem in plain ASCII, with .pdf. */
export function pdfDownloadName(fileName: string): string {
  const stem = fileName.replace(/\.[^.]*$/, '');
  const ascii = stem.replace(/[^A-Za-z0-9._ -]/g, '_').trim();
  return `${ascii || 'document'}.pdf`;
}

/**
 * Sends a PDF (a converted document or the whole application) as a download only its reader
 * keeps: an attachment, nosniff, and never stored by a browser or a proxy, since it holds an
 * applicant's data. Only signed-in staff may ask for `inline`: the browser's own PDF viewer shows
 * it, and the server made every such PDF itself (documents are converted, never passed through).
 */
export function sendPdf(
  reply: FastifyReply,
  pdf: Uint8Array,
  downloadName: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): FastifyReply {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `${disposition}; filename="${downloadName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(pdf));
}
