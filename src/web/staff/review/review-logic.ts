import type { Answers } from '../../../shared/form/model';
import type { ResolvedField } from '../../../shared/form/resolve';
import type { ValidationErrors } from '../../../shared/form/validate';
import type { QueueItem, ReadStatus } from '../../../shared/review/review-api';
import { ServerError } from '../../data/http-client';

/** The search an application page carries when it was opened from the reader's queue. */
export const QUEUE_SEARCH = 'queue=mine';

/** Whether an application page's search says it was opened from the reader's queue. */
export function isQueueSearch(search: string | URLSearchParams): boolean {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return params.get('queue') === 'mine';
}

/**
 * The answers changed since the last save, as the draft's patch: only these are sent, so a save
 * never overwrites what it did not change. A key gone from the answers is sent emptied.
 */
export function changedAnswers(saved: Answers, current: Answers): Answers {
  const patch: Answers = {};
  for (const [key, value] of Object.entries(current)) {
    if (saved[key] !== value) patch[key] = value;
  }
  for (const [key, value] of Object.entries(saved)) {
    if (!(key in current) && value !== '' && value !== false) patch[key] = '';
  }
  return patch;
}

/** "Draft saved at 14:03", in the reader's own clock. */
export function savedAtText(at: Date): string {
  const time = at.toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return `Draft saved at ${time}`;
}

/** "120 of 4,000 characters" under a text area. */
export function characterCountText(length: number, limit: number): string {
  return `${length.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')} characters`;
}

export const STATUS_TEXT: Record<ReadStatus, string> = {
  assigned: 'Not started',
  draft: 'Draft',
  submitted: 'Submitted',
};

/** A weighted score as the reader sees it, two decimals at most. */
export function scoreText(score: number | null | undefined): string {
  if (score === null || score === undefined) return 'No score';
  return score.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** A refused save's messages per answer key (a 422's `errors`), or null when it named none. */
export function fieldErrorsOf(error: unknown): ValidationErrors | null {
  if (!(error instanceof ServerError) || !error.errors) return null;
  const errors: ValidationErrors = {};
  for (const [key, messages] of Object.entries(error.errors)) {
    if (Array.isArray(messages) && messages.length > 0) errors[key] = messages;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/** The error summary's entries in the order the fields stand on screen. */
export function summaryOf(
  shown: readonly Pick<ResolvedField, 'key' | 'field'>[],
  errors: ValidationErrors,
  controlId: (key: string) => string,
): { id: string; label: string; message: string }[] {
  const entries: { id: string; label: string; message: string }[] = [];
  const named = new Set<string>();
  for (const place of shown) {
    if (named.has(place.key)) continue;
    named.add(place.key);
    for (const message of errors[place.key] ?? [])
      entries.push({ id: controlId(place.key), label: place.field.label, message });
  }
  // A message for a key not on screen still reaches the reader, without a field to go to.
  for (const [key, messages] of Object.entries(errors)) {
    if (named.has(key)) continue;
    for (const message of messages) entries.push({ id: controlId(key), label: key, message });
  }
  return entries;
}

export interface QueuePlace {
  /** 1-based; null when the application is not (or no longer) an open read of the member. */
  position: number | null;
  count: number;
  previous: string | null;
  next: string | null;
}

/**
 * Where an application stands in the member's open queue. One that has just left it (its read
 * was submitted) goes on to the oldest open read: that is the next one to do.
 */
export function queuePlace(
  items: readonly Pick<QueueItem, 'application_id'>[],
  applicationId: string,
): QueuePlace {
  const index = items.findIndex((item) => item.application_id === applicationId);
  if (index === -1)
    return {
      position: null,
      count: items.length,
      previous: null,
      next: items[0]?.application_id ?? null,
    };
  return {
    position: index + 1,
    count: items.length,
    previous: items[index - 1]?.application_id ?? null,
    next: items[index + 1]?.application_id ?? null,
  };
}

/** "3 of 12 in your queue", or what stands in its place. */
export function queuePositionText(place: Pick<QueuePlace, 'position' | 'count'>): string {
  if (place.count === 0) return 'Your queue is empty';
  if (place.position === null)
    return `Not in your queue (${place.count.toLocaleString('en-US')} open)`;
  return `${place.position.toLocaleString('en-US')} of ${place.count.toLocaleString('en-US')} in your queue`;
}
