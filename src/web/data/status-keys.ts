/**
 * The status page's query keys, apart from their schemas: the banners above every page read
 * whether a decision is released without bringing the status page's code into the first load.
 */
export const statusQueryKeys = {
  status: ['applicant-status'],
  receipt: ['receipt'],
  decision: ['decision'],
} as const;
