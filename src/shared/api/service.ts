import { z } from 'zod';
import { SERVICE_TOKEN_PARAM } from './page-parameters';

/*
 * The service user's calls (spec 000 section 7): admissions staff read one application through a
 * link carrying `?service_token=`. The token is the only credential, so it rides in the query.
 */

export { SERVICE_TOKEN_PARAM };

/** Tokens are 43 URL-safe characters; anything much longer is not one. */
export const SERVICE_TOKEN_MAX_LENGTH = 100;

const answerValue = z.union([z.string(), z.boolean()]);

/** GET /service/tmp-pdf: everything the read-only view and the application PDF render from. */
export const serviceViewSchema = z.object({
  answer: z.record(z.string(), answerValue),
  add_another: z.record(z.string(), z.number().int()),
  document_answer: z.record(
    z.string(),
    z.object({ file_name: z.string(), file_size: z.number().int().nonnegative() }),
  ),
  tabs: z.record(z.string(), z.string()),
});
export type ServiceView = z.infer<typeof serviceViewSchema>;

export const SERVICE_VIEW_PATH = '/service/tmp-pdf';

export function serviceViewUrl(token: string): string {
  return `${SERVICE_VIEW_PATH}?${new URLSearchParams({ [SERVICE_TOKEN_PARAM]: token })}`;
}

/** Where a staff link downloads the converted PDF of one of the application's documents. */
export function serviceDocumentPdfUrl(answerKey: string, token: string): string {
  const query = new URLSearchParams({ [SERVICE_TOKEN_PARAM]: token });
  return `/service/document/${encodeURIComponent(answerKey)}/pdf?${query}`;
}

/** Where a staff link downloads the whole application as one PDF, documents appended. */
export const SERVICE_PDF_PATH = '/service/pdf';

export function servicePdfUrl(token: string): string {
  return `${SERVICE_PDF_PATH}?${new URLSearchParams({ [SERVICE_TOKEN_PARAM]: token })}`;
}

export const SERVICE_PDF_PREPARING_MESSAGE =
  'The PDF of this application is still being prepared. Please try again in a minute.';

export const SERVICE_LINK_REFUSED_MESSAGE =
  'This staff link is not valid or has expired. Ask for a new link to this application.';
export const SERVICE_READ_ONLY_MESSAGE = 'A staff link can only read this application.';
