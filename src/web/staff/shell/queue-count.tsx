import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../../shared/api/errors';
import { type Queue, queueSchema, REVIEW_API } from '../../../shared/review/review-api';
import { getJson, ServerError } from '../../data/http-client';
import styles from './console.module.css';

/*
 * The reader's queue as the console's navigation counts it. It lives with the shell, which every
 * page has, and the reading screens (src/web/staff/review) take it from here.
 */

function parsed<T>(schema: z.ZodType<T>) {
  return (body: unknown): T => {
    const result = schema.safeParse(body);
    if (!result.success) throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, 200);
    return result.data;
  };
}

export type QueueStatus = 'open' | 'submitted';

/** Cache keys of reading: the queue (both tabs) and each application's reads. */
export const reviewKeys = {
  all: ['staff', 'reviews'] as const,
  queues: ['staff', 'reviews', 'queue'] as const,
  queue: (status: QueueStatus) => ['staff', 'reviews', 'queue', status] as const,
  application: (applicationId: string) =>
    ['staff', 'reviews', 'application', applicationId] as const,
};

export function fetchQueue(status: QueueStatus, signal?: AbortSignal): Promise<Queue> {
  return getJson<unknown>(`${REVIEW_API.queue}?status=${status}`, signal).then(
    parsed<Queue>(queueSchema),
  );
}

/** The member's queue: open reads oldest first, or submitted ones newest first. */
export const queueQuery = (status: QueueStatus) =>
  queryOptions({
    queryKey: reviewKeys.queue(status),
    queryFn: ({ signal }) => fetchQueue(status, signal),
    // Reads are assigned by others at any time; half a minute old is recent enough for a count.
    staleTime: 30_000,
  });

/** The open reads' count beside the navigation's "My queue"; nothing until it is known. */
export function QueueCount() {
  const queue = useQuery(queueQuery('open'));
  const count = queue.data?.open_count;
  if (count === undefined) return null;
  return (
    <>
      {/* Read with the link's name as "My queue, 2 open": the badge shows no comma. */}
      <span className="visually-hidden">,</span>
      <span className={styles.navCount}>
        {count.toLocaleString('en-US')}
        <span className="visually-hidden"> open</span>
      </span>
    </>
  );
}
