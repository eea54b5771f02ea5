import { z } from 'zod';
import { TEMPORARY_ANSWERS_PARAM } from './page-parameters';

export { TEMPORARY_ANSWERS_PARAM };

/**
 * A prefilled answer set (spec 000 section 7, GET /public/tmp?token=): a counselor's draft that a
 * visitor's page loads into their own answers.
 */
export const TEMPORARY_ANSWERS_PATH = '/public/tmp';
export const TEMPORARY_TOKEN_MAX_LENGTH = 100;

export const temporaryAnswerSetSchema = z.object({
  answer: z.record(z.string(), z.union([z.string(), z.boolean()])),
  label: z.string().nullable(),
  expires_at: z.string(),
});
export type TemporaryAnswerSet = z.infer<typeof temporaryAnswerSetSchema>;

export function temporaryAnswersUrl(token: string): string {
  return `${TEMPORARY_ANSWERS_PATH}?${new URLSearchParams({ [TEMPORARY_ANSWERS_PARAM]: token })}`;
}

export const TEMPORARY_ANSWERS_UNKNOWN_MESSAGE =
  'This prefilled application link is not valid. Check that the whole link was copied, or ask for a new one. No answers were loaded.';
export const TEMPORARY_ANSWERS_EXPIRED_MESSAGE =
  'This prefilled application link has expired. Ask for a new one. No answers were loaded.';

export const TEMPORARY_ANSWERS_LOADED_TITLE = 'Prefilled answers loaded';
export const TEMPORARY_ANSWERS_FAILED_TITLE = 'Prefilled answers not loaded';
