import { z } from 'zod';

/** GET /api/pdf (spec 000 section 7): the whole application as one PDF, made in the background. */
export const APPLICATION_PDF_STATUSES = [
  'UNPROCESSED',
  'IN_PROGRESS',
  'COMPLETED',
  'FAILED',
] as const;
export type ApplicationPdfStatusName = (typeof APPLICATION_PDF_STATUSES)[number];

export const applicationPdfStatusSchema = z.strictObject({
  status: z.enum(APPLICATION_PDF_STATUSES),
  /** Where the browser downloads the PDF; set once COMPLETED. */
  url: z.string().nullable(),
  /** Why it FAILED, written for the applicant. */
  message: z.string().nullable(),
});
export type ApplicationPdfStatus = z.infer<typeof applicationPdfStatusSchema>;

/** The statuses during which the browser keeps polling quickly (spec 000 section 4). */
export function isApplicationPdfPending(status: ApplicationPdfStatusName): boolean {
  return status === 'UNPROCESSED' || status === 'IN_PROGRESS';
}

export const APPLICATION_PDF_URL = '/api/pdf/file';
export const APPLICATION_PDF_FAILED_MESSAGE =
  'We could not make the PDF of your application. Please try again later.';
