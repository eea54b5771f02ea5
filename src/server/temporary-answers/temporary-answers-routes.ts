import type { FastifyPluginAsync } from 'fastify';
import {
  TEMPORARY_ANSWERS_EXPIRED_MESSAGE,
  TEMPORARY_ANSWERS_PARAM,
  TEMPORARY_ANSWERS_PATH,
  TEMPORARY_ANSWERS_UNKNOWN_MESSAGE,
  TEMPORARY_TOKEN_MAX_LENGTH,
  type TemporaryAnswerSet,
} from '../../shared/api/temporary-answers';
import { answerKeySpecs, type KeySpec, parseAnswerPatch } from '../../shared/form/answer-keys';
import type { Answers, FormModel } from '../../shared/form/model';
import type { AppDatabase } from '../db/database';
import { HttpError } from '../http/http-error';
import { findTemporaryAnswerSet } from './temporary-answer-sets';

export interface TemporaryAnswersOptions {
  db: AppDatabase;
  model: FormModel;
}

/**
 * What of a stored set still fits the model: a question removed or shortened since the set was
 * made drops out, and the rest loads.
 */
export function stillValidAnswers(specs: Map<string, KeySpec>, stored: unknown): Answers {
  const parsed = parseAnswerPatch(specs, stored);
  if (parsed.ok) return parsed.patch;
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {};
  const rest = Object.fromEntries(
    Object.entries(stored).filter(([key]) => !(key in parsed.errors)),
  );
  const again = parseAnswerPatch(specs, rest);
  return again.ok ? again.patch : {};
}

/** GET /public/tmp?token=: a prefilled answer set for whoever holds its link, until it expires. */
export const temporaryAnswersRoutes: FastifyPluginAsync<TemporaryAnswersOptions> = async (
  app,
  { db, model },
) => {
  const specs = answerKeySpecs(model);

  app.get(TEMPORARY_ANSWERS_PATH, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    const token = (request.query as Record<string, unknown> | undefined)?.[TEMPORARY_ANSWERS_PARAM];
    const found =
      typeof token === 'string' && token.length > 0 && token.length <= TEMPORARY_TOKEN_MAX_LENGTH
        ? await findTemporaryAnswerSet(db, token)
        : ({ status: 'unknown' } as const);
    if (found.status === 'unknown') throw new HttpError(404, TEMPORARY_ANSWERS_UNKNOWN_MESSAGE);
    if (found.status === 'expired') throw new HttpError(410, TEMPORARY_ANSWERS_EXPIRED_MESSAGE);
    const body: TemporaryAnswerSet = {
      answer: stillValidAnswers(specs, found.answers),
      label: found.label,
      expires_at: found.expiresAt.toISOString(),
    };
    return body;
  });
};
