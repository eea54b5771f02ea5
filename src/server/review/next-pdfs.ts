import type { Queue } from '../../shared/review/review-api';

/** How many of the reader's next open reads get their application PDF made ahead. */
export const NEXT_PDFS = 2;

/**
 * When a reader opens an application of their open queue, the application PDFs of the next ones
 * are started (not viewed, so nothing is audited): a PDF made on the first open keeps the reader
 * waiting on the job queue and the render, where one made while they read the current
 * application is there when they press `j`. A submit starts the PDF already; this covers those
 * gone stale since (a coursework update, a document) or never made (imported applications).
 */
export function nextPdfsPreparer(deps: {
  queue: (readerId: string) => Promise<Pick<Queue, 'items'>>;
  /** Starts the PDF unless an up-to-date one is stored or on its way (ApplicationPdfs.request). */
  request: (accountId: string) => Promise<unknown>;
}): (readerId: string, applicationId: string) => Promise<void> {
  return async (readerId, applicationId) => {
    const { items } = await deps.queue(readerId);
    const at = items.findIndex((item) => item.application_id === applicationId);
    if (at < 0) return;
    for (const item of items.slice(at + 1, at + 1 + NEXT_PDFS)) {
      await deps.request(item.application_id);
    }
  };
}
