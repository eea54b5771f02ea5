import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import {
  TEMPORARY_ANSWERS_FAILED_TITLE,
  TEMPORARY_ANSWERS_LOADED_TITLE,
  temporaryAnswerSetSchema,
  temporaryAnswersUrl,
} from '../../shared/api/temporary-answers';
import { type Answers, type AnswerValue, DESC_SUFFIX } from '../../shared/form/model';
import type { FormSession } from '../app-state/form-session';
import { hasContent } from '../app-state/local-copy';
import { getJson, ServerError } from '../data/http-client';

/**
 * The part of a prefilled set that fills gaps: answers the visitor already gave are kept, and a
 * choice's `{key}_desc` label comes only with its choice.
 */
export function gapsFilledBy(
  set: Answers,
  current: (key: string) => AnswerValue | undefined,
): Answers {
  const filled: Answers = {};
  for (const [key, value] of Object.entries(set)) {
    if (!hasContent(value) || hasContent(current(key))) continue;
    filled[key] = value;
  }
  for (const key of Object.keys(filled)) {
    const base = key.endsWith(DESC_SUFFIX) ? key.slice(0, -DESC_SUFFIX.length) : null;
    if (base !== null && base in set && !(base in filled)) delete filled[key];
  }
  return filled;
}

function describeLoaded(count: number, label: string | null, signedIn: boolean): string {
  if (count === 0)
    return 'Every prefilled question already had your answer, so nothing was changed.';
  const from = label ? ` from “${label}”` : '';
  const answers = count === 1 ? '1 answer was' : `${count} answers were`;
  const where = signedIn ? 'saved to your application' : 'kept in this browser';
  return `${answers} filled in${from} and ${where}. Answers you had already given were kept. Please check them before you submit.`;
}

/**
 * GET /public/tmp?token=: a counselor's prefilled answers join the visitor's own, never replacing
 * an answer already given. An anonymous visitor keeps them in this browser like anything typed; a
 * signed-in applicant has them saved to the account the way answers typed before log-in are
 * (PUT /api/answer?keep_existing=true). An unknown or expired link loads nothing and says so.
 */
export async function loadTemporaryAnswers(session: FormSession, token: string): Promise<void> {
  const { answers: answerStore, prefillNotice } = session;
  let set: { answer: Answers; label: string | null };
  try {
    set = temporaryAnswerSetSchema.parse(await getJson<unknown>(temporaryAnswersUrl(token)));
  } catch (error) {
    prefillNotice.set({
      severity: 'error',
      title: TEMPORARY_ANSWERS_FAILED_TITLE,
      description: error instanceof ServerError ? error.message : GENERIC_SERVER_ERROR_MESSAGE,
    });
    return;
  }
  const filled = gapsFilledBy(set.answer, (key) => answerStore.get(key));
  const count = Object.keys(filled).filter((key) => !key.endsWith(DESC_SUFFIX)).length;
  const signedIn = answerStore.mode === 'account';
  if (signedIn) await session.carryInAnswers(filled);
  else answerStore.setMany(filled);
  prefillNotice.set({
    severity: 'success',
    title: TEMPORARY_ANSWERS_LOADED_TITLE,
    description: describeLoaded(count, set.label, signedIn),
  });
}
