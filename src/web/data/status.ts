import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import {
  type ApplicantStatus,
  applicantStatusSchema,
  DECISION_REPLY_URL,
  DECISION_URL,
  type DecisionReply,
  RECEIPT_URL,
  type Receipt,
  type ReleasedDecision,
  receiptSchema,
  releasedDecisionSchema,
  STATUS_URL,
} from '../../shared/api/status';
import { getJson, postJson, ServerError } from './http-client';
import { statusQueryKeys } from './status-keys';

/** How often the status page asks again, so a staff mark shows up while the page is open. */
export const STATUS_REFRESH_MS = 30_000;

export { statusQueryKeys };

async function parsed<T>(path: string, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
  const result = schema.safeParse(await getJson<unknown>(path, signal));
  if (!result.success) throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, null);
  return result.data;
}

/**
 * GET /api/status. Unlike the app's other queries it is read again on an interval and when the
 * window regains focus: staff mark items while the applicant waits.
 */
export const applicantStatusQueryOptions = queryOptions<ApplicantStatus>({
  queryKey: statusQueryKeys.status,
  queryFn: ({ signal }) => parsed(STATUS_URL, applicantStatusSchema, signal),
  staleTime: 0,
  refetchOnMount: 'always',
  refetchOnWindowFocus: 'always',
  refetchInterval: STATUS_REFRESH_MS,
});

export const receiptQueryOptions = queryOptions<Receipt | null>({
  queryKey: statusQueryKeys.receipt,
  queryFn: ({ signal }) => parsed(RECEIPT_URL, receiptSchema.nullable(), signal),
});

/** A decision is released at a time staff chose: read again like the status. */
export const decisionQueryOptions = queryOptions<ReleasedDecision | null>({
  queryKey: statusQueryKeys.decision,
  queryFn: ({ signal }) => parsed(DECISION_URL, releasedDecisionSchema.nullable(), signal),
  staleTime: 0,
  refetchOnMount: 'always',
  refetchOnWindowFocus: 'always',
  refetchInterval: STATUS_REFRESH_MS,
});

/** POST /api/decision/reply; answers the decision as it now stands. */
export async function replyToDecision(reply: DecisionReply): Promise<ReleasedDecision> {
  const result = releasedDecisionSchema.safeParse(
    await postJson<unknown>(DECISION_REPLY_URL, { reply }),
  );
  if (!result.success) throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, null);
  return result.data;
}
