import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../../shared/api/errors';
import { staffCourseworkFields } from '../../../shared/coursework/coursework-update-api';
import {
  type ApplicationDetail,
  type ApplicationHistoryEntry,
  type ApplicationNeighbours,
  applicationDetailSchema,
  applicationUrls,
  type Checklist,
  type ChecklistState,
  checklistSchema,
  type ReceiptVerification,
  receiptVerificationSchema,
} from '../../../shared/staff/application-api';
import { getJson, putJson, ServerError } from '../../data/http-client';
import { applicationKeys } from '../common/staff-query-keys';
import { type DownloadedFile, fetchFile } from '../shell/staff-calls';

/** A reply that does not keep the contract fails like a broken reply, not deep in a component. */
function parsed<T>(schema: z.ZodType<T>) {
  return (body: unknown): T => {
    const result = schema.safeParse(body);
    if (!result.success) throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, 200);
    return result.data;
  };
}

/** The application with the coursework the applicant added after submit. */
const detailSchema = applicationDetailSchema.extend(staffCourseworkFields);
export type ApplicationDetailWithCoursework = ApplicationDetail & z.infer<typeof detailSchema>;

/** The calls of the one-application page (src/shared/staff/application-api.ts has the contract). */
export const applicationCalls = {
  detail: (id: string) =>
    getJson<unknown>(applicationUrls.detail(id)).then(
      parsed<ApplicationDetailWithCoursework>(detailSchema),
    ),
  neighbours: (id: string, listQuery: string) =>
    getJson<ApplicationNeighbours>(applicationUrls.neighbours(id, listQuery)),
  history: (id: string) => getJson<ApplicationHistoryEntry[]>(applicationUrls.history(id)),
  mark: (id: string, item: string, state: ChecklistState) =>
    putJson<unknown>(applicationUrls.checklistItem(id, item), { state }).then(
      parsed<Checklist>(checklistSchema),
    ),
  pdf: (id: string): Promise<DownloadedFile> => fetchFile(applicationUrls.pdf(id)),
  verifyReceipt: (id: string) =>
    getJson<unknown>(applicationUrls.verifyReceipt(id)).then(
      parsed<ReceiptVerification>(receiptVerificationSchema),
    ),
};

export { applicationKeys };

/**
 * One application. Each read is recorded in its audit trail, so it is asked for only when the
 * reader opens the page: never prefetched for the neighbours, however much faster that would be.
 */
export const applicationDetailQuery = (id: string) =>
  queryOptions({
    queryKey: applicationKeys.detail(id),
    queryFn: () => applicationCalls.detail(id),
    // A return to an application shows what colleagues changed since, and is recorded as a read.
    refetchOnMount: 'always',
  });

export const applicationNeighboursQuery = (id: string, listQuery: string) =>
  queryOptions({
    queryKey: applicationKeys.neighbours(id, listQuery),
    queryFn: () => applicationCalls.neighbours(id, listQuery),
    // The list moves as applications arrive and change: the place is asked afresh each time.
    refetchOnMount: 'always',
  });

export const applicationHistoryQuery = (id: string) =>
  queryOptions({
    queryKey: applicationKeys.history(id),
    queryFn: () => applicationCalls.history(id),
    // Colleagues act on the same application: each visit shows the newest entries.
    refetchOnMount: 'always',
  });

/** The document links of the console's read view: through the member's session, no token. */
export function consoleDocumentLinks(id: string) {
  return {
    document: (answerKey: string) => applicationUrls.document(id, answerKey),
    download: (answerKey: string) => applicationUrls.document(id, answerKey, true),
  };
}
