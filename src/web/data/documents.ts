import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { startConversionSchema } from '../../shared/api/document-schemas';
import {
  type ConversionStatusResponse,
  type DocumentAnswersResponse,
  documentPdfUrl,
  type PresignedUrlResponse,
} from '../../shared/api/documents';
import { GENERIC_SERVER_ERROR_MESSAGE, isApiErrorBody } from '../../shared/api/errors';
import { FILE_TOO_LARGE_MESSAGE } from '../../shared/documents/file-rules';
import { deleteJson, getJson, postJson, ServerError, UnauthorizedError } from './http-client';
import { queryKeys } from './query-keys';

/** The document calls of spec 000 section 7, one function each. */

export type StartConversion = z.infer<typeof startConversionSchema>;

/** Where a browser upload goes: `url` may be our own '/public/upload' or an S3 bucket. */
export type UploadForm = Pick<PresignedUrlResponse, 'url'> & {
  fields: Readonly<Record<string, string>> & { key: string };
};

export const UPLOAD_FAILED_MESSAGE =
  'We could not upload your file. Please check your connection and try again.';

const keySegment = (answerKey: string) => encodeURIComponent(answerKey);

/** GET /api/document-answer: the converted files, by answer key. */
export const documentAnswersQueryOptions = queryOptions({
  queryKey: queryKeys.documentAnswers,
  queryFn: () => getJson<DocumentAnswersResponse>('/api/document-answer'),
});

export function conversionStatusQueryOptions(answerKey: string) {
  return queryOptions({
    queryKey: queryKeys.documentConversion(answerKey),
    queryFn: () =>
      getJson<ConversionStatusResponse>(`/api/pdf/document-answer/${keySegment(answerKey)}`),
    // Each read asks the server again: the status is what a poll or a tab switch must know now.
    staleTime: 0,
  });
}

/**
 * Spec 001 section 7: when a tab switch fails, the cached conversion statuses and converted
 * documents are reset, so the file questions show what the server holds rather than what the
 * half-done switch left (the list is read again at once; statuses at their next read).
 */
export async function resetDocumentData(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.resetQueries({ queryKey: queryKeys.documentAnswers }),
    queryClient.resetQueries({ queryKey: queryKeys.documentConversions }),
  ]);
}

export function requestUploadForm(answerKey: string): Promise<UploadForm> {
  return postJson<UploadForm>('/api/presigned-url', { answer_key: answerKey });
}

export function startConversion(
  answerKey: string,
  body: StartConversion,
): Promise<ConversionStatusResponse> {
  return postJson<ConversionStatusResponse>(
    `/api/pdf/document-answer/${keySegment(answerKey)}`,
    body,
  );
}

/** Removes the file, its conversion and the answer: the spec names both calls, so both are made. */
export async function deleteDocument(answerKey: string): Promise<void> {
  await deleteJson(`/api/pdf/document-answer/${keySegment(answerKey)}`);
  await deleteJson(`/api/document-answer/${keySegment(answerKey)}`);
}

/** The converted PDF as a blob (the server sends it as an attachment, owner only). */
export async function fetchDocumentPdf(answerKey: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(documentPdfUrl(answerKey), { credentials: 'same-origin' });
  } catch {
    throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, null);
  }
  if (response.ok) {
    // Typed as a PDF whatever the headers say, so the browser's viewer opens it.
    return new Blob([await response.arrayBuffer()], { type: 'application/pdf' });
  }
  const message = apiMessage(await response.text().catch(() => '')) ?? GENERIC_SERVER_ERROR_MESSAGE;
  if (response.status === 401) throw new UnauthorizedError(message);
  throw new ServerError(message, response.status);
}

export type UploadProgressListener = (loaded: number, total: number) => void;

/**
 * Posts the file to the upload form with XMLHttpRequest, whose upload events report progress
 * (fetch has none). The policy fields go first and the file last, as S3 requires.
 */
export function postFileToUploadForm(
  form: UploadForm,
  file: Blob,
  fileName: string,
  onProgress: UploadProgressListener,
): Promise<void> {
  const body = new FormData();
  for (const [name, value] of Object.entries(form.fields)) body.append(name, value);
  body.append('file', file, fileName);
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', form.url);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(new ServerError(uploadRefusal(xhr.status, xhr.responseText), xhr.status));
    });
    xhr.addEventListener('error', () => reject(new ServerError(UPLOAD_FAILED_MESSAGE, null)));
    xhr.addEventListener('abort', () => reject(new ServerError(UPLOAD_FAILED_MESSAGE, null)));
    xhr.send(body);
  });
}

/** What to tell the applicant about a refused upload: our server's sentence, or S3's reason. */
export function uploadRefusal(status: number, responseText: string): string {
  if (status === 413 || /<Code>EntityTooLarge<\/Code>/.test(responseText)) {
    return FILE_TOO_LARGE_MESSAGE;
  }
  return apiMessage(responseText) ?? UPLOAD_FAILED_MESSAGE;
}

function apiMessage(text: string): string | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return isApiErrorBody(parsed) && parsed.message.trim() !== '' ? parsed.message : null;
  } catch {
    return null;
  }
}
