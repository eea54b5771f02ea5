import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../../shared/api/errors';
import type { Answers } from '../../../shared/form/model';
import {
  type ApplicationReviews,
  applicationReviewsSchema,
  REVIEW_API,
  type ReadView,
  readViewSchema,
} from '../../../shared/review/review-api';
import { getJson, postJson, putJson, ServerError } from '../../data/http-client';
import { fetchQueue, type QueueStatus, queueQuery, reviewKeys } from '../shell/queue-count';

export { type QueueStatus, queueQuery, reviewKeys };

/** A reply that does not keep the contract fails like a broken reply, not deep in a component. */
function parsed<T>(schema: z.ZodType<T>) {
  return (body: unknown): T => {
    const result = schema.safeParse(body);
    if (!result.success) throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, 200);
    return result.data;
  };
}

/** The reading calls of src/shared/review/review-api.ts that a reader makes. */
export const reviewCalls = {
  queue: (status: QueueStatus, signal?: AbortSignal) => fetchQueue(status, signal),
  applicationReviews: (applicationId: string, signal?: AbortSignal) =>
    getJson<unknown>(REVIEW_API.applicationReviews(encodeURIComponent(applicationId)), signal).then(
      parsed<ApplicationReviews>(applicationReviewsSchema),
    ),
  /** Only the keys changed since the last save: the server checks each against the form. */
  saveDraft: (readId: string, patch: Answers) =>
    putJson<unknown>(REVIEW_API.draft(encodeURIComponent(readId)), { answers: patch }).then(
      parsed<ReadView>(readViewSchema),
    ),
  /** The stored draft is what is submitted: save the changes first. */
  submit: (readId: string) =>
    postJson<unknown>(REVIEW_API.submit(encodeURIComponent(readId)), {}).then(
      parsed<ReadView>(readViewSchema),
    ),
  /** A read of an application not in the member's queue, where their role allows it. */
  start: (applicationId: string) =>
    postJson<unknown>(REVIEW_API.applicationReviews(encodeURIComponent(applicationId)), {}).then(
      parsed<ReadView>(readViewSchema),
    ),
};

/** The application's reads the member may see: each visit is a fresh (audited) read. */
export const applicationReviewsQuery = (applicationId: string) =>
  queryOptions({
    queryKey: reviewKeys.application(applicationId),
    queryFn: ({ signal }) => reviewCalls.applicationReviews(applicationId, signal),
    refetchOnMount: 'always',
  });

/** The member's own read, as a reply gave it, put in the application's cached reads. */
export function withMine(queryClient: QueryClient, applicationId: string, read: ReadView): void {
  queryClient.setQueryData<ApplicationReviews>(reviewKeys.application(applicationId), (old) =>
    old ? { ...old, mine: read } : old,
  );
}

export const saveDraftMutation = (applicationId: string) =>
  mutationOptions({
    mutationKey: [...reviewKeys.application(applicationId), 'draft'],
    mutationFn: ({ readId, patch }: { readId: string; patch: Answers }) =>
      reviewCalls.saveDraft(readId, patch),
  });

export const submitReadMutation = (queryClient: QueryClient, applicationId: string) =>
  mutationOptions({
    mutationKey: [...reviewKeys.application(applicationId), 'submit'],
    mutationFn: (readId: string) => reviewCalls.submit(readId),
    onSuccess: async (read) => {
      withMine(queryClient, applicationId, read);
      // Submitting shows the others' blind parts and moves the read out of the open queue.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.application(applicationId) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues }),
      ]);
    },
  });

export const startReadMutation = (queryClient: QueryClient, applicationId: string) =>
  mutationOptions({
    mutationKey: [...reviewKeys.application(applicationId), 'start'],
    mutationFn: () => reviewCalls.start(applicationId),
    onSuccess: async (read) => {
      withMine(queryClient, applicationId, read);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.application(applicationId) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues }),
      ]);
    },
  });
