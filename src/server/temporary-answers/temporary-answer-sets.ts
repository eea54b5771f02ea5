import { eq, lt, sql } from 'drizzle-orm';
import { answerKeySpecs, type KeySpec, parseAnswerPatch } from '../../shared/form/answer-keys';
import {
  type Answers,
  type AnswerValue,
  DESC_SUFFIX,
  type FormModel,
  type OptionItem,
  storesDesc,
} from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';
import { randomToken, sha256 } from '../accounts/secrets';
import type { AppDatabase } from '../db/database';
import { temporaryAnswerSets } from '../db/schema';
import { fileQuestionKeys } from '../documents/document-routes';

export const TEMPORARY_ANSWERS_DEFAULT_TTL = '14d';
/** A draft holds a student's personal details: it should not outlive an admission cycle's weeks. */
export const TEMPORARY_ANSWERS_MAX_TTL_MS = 90 * 86_400_000;
/** Expired sets are kept this long (so their link still says "expired"), then deleted. */
const EXPIRED_KEPT_DAYS = 30;

export const PREFILL_MESSAGES = {
  notAnOption: 'This is not one of the options of this question.',
  document: 'Documents cannot be prefilled: the applicant uploads them.',
  empty: 'The answer set holds no answers.',
} as const;

export type PreparedAnswers =
  | { ok: true; answers: Answers }
  | { ok: false; errors: Record<string, string[]> };

const everyPlace = { addAnother: {}, tabs: {}, isLoggedIn: true, answers: {} };

/**
 * Checks a prefilled answer set as PUT /api/answer checks a save (the same key specs), and more
 * strictly, since nobody is there to correct it: choices must be options of their question (their
 * `_desc` labels come from the model, whatever the file says), documents cannot be prefilled, and
 * empty answers are left out so they never blank anything. Every problem is reported at once.
 */
export function prepareAnswerSet(
  model: FormModel,
  input: unknown,
  specs: Map<string, KeySpec> = answerKeySpecs(model),
): PreparedAnswers {
  const parsed = parseAnswerPatch(specs, input);
  if (!parsed.ok && '_' in parsed.errors) return parsed;
  const errors: Record<string, string[]> = parsed.ok ? {} : { ...parsed.errors };
  const answers: Answers = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    // Labels come from the model below, never from the file.
    const isLabel = key.endsWith(DESC_SUFFIX) && specs.has(key.slice(0, -DESC_SUFFIX.length));
    const empty = value === '' || value === false;
    if (!(key in errors) && !isLabel && !empty) answers[key] = value as AnswerValue;
  }

  const files = fileQuestionKeys(model);
  for (const key of Object.keys(answers))
    if (files.has(key)) errors[key] = [PREFILL_MESSAGES.document];

  // A key may stand in several places (grouped conditions); a value that is an option in any counts.
  const labels = new Map<string, string | undefined>();
  for (const place of resolveModel(model, { ...everyPlace, answers })) {
    const value = answers[place.key];
    if (!storesDesc(place.field) || typeof value !== 'string') continue;
    let options: readonly OptionItem[] = place.field.options ?? [];
    if (place.field.optionsFrom) {
      const controller = answers[place.resolveKey(place.field.optionsFrom.controllerKey)];
      options = place.field.optionsFrom.options[String(controller ?? '')] ?? [];
    }
    const label = options.find((option) => option.value === value)?.label;
    if (label !== undefined) labels.set(place.key, label);
    else if (!labels.has(place.key)) labels.set(place.key, undefined);
  }
  for (const [key, label] of labels) {
    if (label === undefined) errors[key] = [PREFILL_MESSAGES.notAnOption];
    else answers[`${key}${DESC_SUFFIX}`] = label;
  }

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
  await db.insert(temporaryAnswerSets).values({
    tokenHash: sha256(token),
    answers: set.answers,
    label: set.label,
    expiresAt,
  });
  // Long-expired drafts are personal data nobody can use any more.
  await db
    .delete(temporaryAnswerSets)
    .where(
      lt(temporaryAnswerSets.expiresAt, sql`now() - make_interval(days => ${EXPIRED_KEPT_DAYS})`),
    );
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
  const [row] = await db
    .select({
      answers: temporaryAnswerSets.answers,
      label: temporaryAnswerSets.label,
      expiresAt: temporaryAnswerSets.expiresAt,
      live: sql<boolean>`${temporaryAnswerSets.expiresAt} > now()`,
    })
    .from(temporaryAnswerSets)
    .where(eq(temporaryAnswerSets.tokenHash, sha256(token)));
  if (!row) return { status: 'unknown' };
  if (!row.live) return { status: 'expired' };
  return { status: 'live', answers: row.answers, label: row.label, expiresAt: row.expiresAt };
}
