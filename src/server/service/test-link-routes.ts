import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { FormModel } from '../../shared/form/model';
import { CommandError, parseDuration } from '../cli/command-support';
import type { AppDatabase } from '../db/database';
import { devToolsGuard } from '../http/dev-tools-access';
import { INVALID_REQUEST_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import {
  mintTemporaryAnswerSet,
  prepareAnswerSet,
  TEMPORARY_ANSWERS_DEFAULT_TTL,
  TEMPORARY_ANSWERS_MAX_TTL_MS,
} from '../temporary-answers/temporary-answer-sets';
import {
  findApplicant,
  mintServiceToken,
  SERVICE_TOKEN_DEFAULT_TTL,
  SERVICE_TOKEN_MAX_TTL_MS,
} from './service-tokens';

const serviceTokenBody = z.strictObject({
  email: z.string().min(1).max(320),
  ttl: z.string().max(20).optional(),
});
const temporaryAnswersBody = z.strictObject({
  answers: z.unknown(),
  ttl: z.string().max(20).optional(),
  label: z.string().max(200).optional(),
});

function ttlOf(text: string, maxMs: number): number {
  try {
    return parseDuration(text, maxMs);
  } catch (error) {
    if (error instanceof CommandError)
      throw new HttpError(400, INVALID_REQUEST_MESSAGE, { ttl: [error.message] });
    throw error;
  }
}

/**
 * The two link commands as calls, for the end-to-end tests only: their server keeps its embedded
 * database locked, so `npm run service-token` cannot reach it. app.ts registers these only when
 * NODE_ENV is test, and they answer only this machine and the holder of the development tools key
 * (devToolsGuard). They run the commands' own functions.
 */
export const testLinkRoutes: FastifyPluginAsync<{
  db: AppDatabase;
  model: FormModel;
  devToolsKey: string;
}> = async (parent, { db, model, devToolsKey }) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', devToolsGuard(devToolsKey));

  app.post('/test/service-token', { schema: { body: serviceTokenBody } }, async (request) => {
    const ttlMs = ttlOf(request.body.ttl ?? SERVICE_TOKEN_DEFAULT_TTL, SERVICE_TOKEN_MAX_TTL_MS);
    const applicant = await findApplicant(db, request.body.email);
    if (!applicant) throw new HttpError(404, 'No account uses this address.');
    const { token } = await mintServiceToken(db, applicant.accountId, ttlMs);
    return { token };
  });

  app.post(
    '/test/temporary-answers',
    { schema: { body: temporaryAnswersBody } },
    async (request) => {
      const ttlMs = ttlOf(
        request.body.ttl ?? TEMPORARY_ANSWERS_DEFAULT_TTL,
        TEMPORARY_ANSWERS_MAX_TTL_MS,
      );
      const prepared = prepareAnswerSet(model, request.body.answers);
      if (!prepared.ok) throw new HttpError(400, INVALID_REQUEST_MESSAGE, prepared.errors);
      const { token } = await mintTemporaryAnswerSet(db, {
        answers: prepared.answers,
        label: request.body.label ?? null,
        ttlMs,
      });
      return { token };
    },
  );
};
