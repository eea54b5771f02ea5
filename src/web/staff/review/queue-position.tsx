import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ApplicationNeighbours } from '../../../shared/staff/application-api';
import { applicationPath } from '../common/application-paths';
import { queueQuery } from './review-calls';
import { QUEUE_SEARCH, queuePlace, queuePositionText } from './review-logic';
import styles from './review-panel.module.css';

export interface QueueNavigationState {
  /** 1-based place of the application in the member's open queue; null when not in it. */
  position: number | null;
  count: number;
  /** Go to the next open read; false when there is none (or the queue is not known yet). */
  next: () => boolean;
  previous: () => boolean;
  /**
   * The same place in the shape the application page's list navigation reads (QueueNavigation
   * and its j/k keys): undefined while the queue loads.
   */
  neighbours: ApplicationNeighbours | undefined;
  failed: boolean;
  /** The search each step carries, so the next application is opened from the queue too. */
  search: string;
}

/** Previous and next through the member's open reads, oldest first, as the queue page lists them. */
export function useQueueNavigation(applicationId: string, enabled = true): QueueNavigationState {
  const queue = useQuery({ ...queueQuery('open'), enabled });
  const navigate = useNavigate();
  const place = useMemo(
    () => (queue.data ? queuePlace(queue.data.items, applicationId) : null),
    [queue.data, applicationId],
  );
  const go = useCallback(
    (target: string | null | undefined) => {
      if (!target) return false;
      navigate(applicationPath(target, QUEUE_SEARCH));
      return true;
    },
    [navigate],
  );
  return {
    position: place?.position ?? null,
    count: queue.data?.open_count ?? place?.count ?? 0,
    next: () => go(place?.next),
    previous: () => go(place?.previous),
    neighbours: place
      ? {
          previous: place.previous,
          next: place.next,
          previous_page: null,
          next_page: null,
          position: place.position,
          total: place.count,
        }
      : undefined,
    failed: queue.isError,
    search: QUEUE_SEARCH,
  };
}

/**
 * "3 of 12 in your queue". The region is put in the page empty and filled just after, so a
 * screen reader announces the place each time another application opens.
 */
export function QueuePosition({ applicationId }: { applicationId: string }) {
  const queue = useQuery(queueQuery('open'));
  const text = queue.data ? queuePositionText(queuePlace(queue.data.items, applicationId)) : '';
  const [shown, setShown] = useState('');
  useEffect(() => {
    setShown(text);
  }, [text]);
  return (
    <p role="status" className={styles.position}>
      {shown}
    </p>
  );
}
