import { answerKeySpecs, type KeySpec, parseAnswerPatch } from '../../shared/form/answer-keys';
import { type Answers, DESC_SUFFIX, type FormModel } from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';
import { storedAnswerProblem, todayIso } from '../../shared/form/validate';
import { randomToken, sha256 } from '../accounts/secrets';
import type { AppDatabase } from '../db/database';
import { createTemporaryAnswersStore } from './temporary-answers-store';

export const TEMPORARY_ANSWERS_DEFAULT_TTL = '14d';
/** A draft holds a student's personal details: it should not outlive an admission cycle's weeks. */
export const TEMPORARY_ANSWERS_MAX_TTL_MS = 90 * 86_400_000;
/** Expired sets are kept this long (so their link still says "expired"), then deleted. */
const EXPIRED_KEPT_DAYS = 30;

export const PREFILL_MESSAGES = {
  empty: 'The answer set holds no answers.',
} as const;

export type PreparedAnswers =
  | { ok: true; answers: Answers }
  | { ok: false; errors: Record<string, string[]> };

const everyPlace = { addAnother: {}, tabs: {}, isLoggedIn: true, answers: {} };

const isEmpty = (value: unknown) => value === '' || value === false;

/**
 * Checks a prefilled answer set as PUT /api/answer checks a save (`parseAnswerPatch`: known keys,
 * types, lengths, options, dates; no documents), and as submit checks the answers where they
 * stand (`storedAnswerProblem`: a conditional dropdown against its controller's answer in the
 * set), since nobody is there to correct it. Labels come from the model, whatever the file says,
 * and empty answers are left out so they never blank anything. Every problem is reported at once.
 */
export function prepareAnswerSet(
  model: FormModel,
  input: unknown,
  specs: Map<string, KeySpec> = answerKeySpecs(model),
  today: string = todayIso(),
): PreparedAnswers {
  const isLabel = (key: string) =>
    key.endsWith(DESC_SUFFIX) && specs.get(key)?.values?.kind === 'label';
  const withoutLabels =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? Object.fromEntries(Object.entries(input).filter(([key]) => !isLabel(key)))
      : input;
  const parsed = parseAnswerPatch(specs, withoutLabels, {
    currentYear: Number(today.slice(0, 4)),
  });
  if (!parsed.ok && '_' in parsed.errors) return parsed;
  const errors: Record<string, string[]> = parsed.ok ? {} : { ...parsed.errors };
  const checked: Record<string, unknown> = parsed.ok
    ? parsed.patch
    : Object.fromEntries(
        Object.entries(withoutLabels as object).filter(([key]) => !(key in errors)),
      );
  // An empty answer leaves out its label with it.
  const answers = Object.fromEntries(
    Object.entries(checked).filter(
      ([key]) => !isEmpty(checked[isLabel(key) ? key.slice(0, -DESC_SUFFIX.length) : key]),
    ),
  ) as Answers;

  // A key may stand in several places (grouped conditions): valid in any of them counts.
  const problems = new Map<string, string | null>();
  for (const place of resolveModel(model, { ...everyPlace, answers })) {
    if (!(place.key in answers) || problems.get(place.key) === null) continue;
    problems.set(place.key, storedAnswerProblem(place, answers, { today }));
  }
  for (const [key, problem] of problems) if (problem !== null) errors[key] = [problem];

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (Object.keys(answers).length === 0)
    return { ok: false, errors: { _: [PREFILL_MESSAGES.empty] } };
  return { ok: true, answers };
}

/** Stores a prepared set under a new token (256 random bits, kept only as SHA-256). */
export async function mintTemporaryAnswerSet(
  db: AppDatabase,
  set: { answers: Answers; label: string | null; ttlMs: number },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + set.ttlMs);
  const store = createTemporaryAnswersStore(db);
  await store.insert({
    tokenHash: sha256(token),
    answers: set.answers,
    label: set.label,
    expiresAt,
  });
  // Long-expired drafts are personal data nobody can use any more.
  await store.deleteExpiredBefore(EXPIRED_KEPT_DAYS);
  return { token, expiresAt };
}

export type FoundAnswerSet =
  | { status: 'live'; answers: unknown; label: string | null; expiresAt: Date }
  | { status: 'expired' }
  | { status: 'unknown' };

export async function findTemporaryAnswerSet(
  db: AppDatabase,
  token: string,
): Promise<FoundAnswerSet> {
  const row = await createTemporaryAnswersStore(db).findByTokenHash(sha256(token));
  if (!row) return { status: 'unknown' };
  if (!row.live) return { status: 'expired' };
  return { status: 'live', answers: row.answers, label: row.label, expiresAt: row.expiresAt };
}
