import { queryOptions } from '@tanstack/react-query';
import { GENERIC_SERVER_ERROR_MESSAGE, isApiErrorBody } from '../../../shared/api/errors';
import {
  type CreditEvaluationView,
  creditUrls,
  type ReviewBody,
} from '../../../shared/credit/credit-api';
import {
  deleteJson,
  getJson,
  postJson,
  putJson,
  ServerError,
  UnauthorizedError,
} from '../../data/http-client';
import { type DownloadedFile, fetchFile } from '../shell/staff-calls';

/** The estimate's release, as POST creditUrls.release answers it. */
export interface EstimateRelease {
  released_at: string;
  released_by: string;
}

/** The calls of transfer credit (src/shared/credit/credit-api.ts has the contract). */
export const creditCalls = {
  evaluation: (id: string) => getJson<CreditEvaluationView>(creditUrls.evaluation(id)),
  review: (id: string, body: ReviewBody) =>
    putJson<CreditEvaluationView>(creditUrls.review(id), body),
  undo: (id: string, courseRef: string) =>
    deleteJson<CreditEvaluationView>(
      `${creditUrls.review(id)}?course_ref=${encodeURIComponent(courseRef)}`,
    ),
  release: (id: string) => postJson<EstimateRelease>(creditUrls.release(id)),
  preview: (id: string): Promise<DownloadedFile> => fetchFile(creditUrls.preview(id)),
  transcript: (pdfUrl: string): Promise<DownloadedFile> => fetchFile(pdfUrl),
  /** The PDF itself is the body: the route takes application/pdf, not a multipart form. */
  attachTranscript: async (id: string, gridKey: string, file: File) => {
    const url = `${creditUrls.transcript(id, gridKey)}?file_name=${encodeURIComponent(file.name)}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { Accept: 'application/json', 'Content-Type': 'application/pdf' },
        body: file,
      });
    } catch {
      throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, null);
    }
    const body: unknown = await response.json().catch(() => null);
    if (response.ok && body !== null) return body as CreditEvaluationView;
    const message =
      isApiErrorBody(body) && body.message.trim() !== ''
        ? body.message
        : GENERIC_SERVER_ERROR_MESSAGE;
    if (response.status === 401) throw new UnauthorizedError(message);
    throw new ServerError(message, response.status);
  },
};

export const creditKeys = {
  evaluation: (id: string) => ['staff', 'credit', id] as const,
  transcript: (pdfUrl: string, version: string) =>
    ['staff', 'credit', 'transcript', pdfUrl, version] as const,
  preview: (id: string) => ['staff', 'credit', id, 'preview'] as const,
};

/**
 * One application's evaluation. Each read is recorded (credit.view), so it is asked for only
 * where it is shown, and not retried on a refusal (409: not submitted).
 */
export const creditEvaluationQuery = (id: string) =>
  queryOptions({
    queryKey: creditKeys.evaluation(id),
    queryFn: () => creditCalls.evaluation(id),
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    retry: (count, error) =>
      !(error instanceof ServerError && error.status !== null && error.status < 500) && count < 2,
  });
