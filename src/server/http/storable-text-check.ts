import type { FastifyInstance } from 'fastify';
import type { ApiErrorBody } from '../../shared/api/errors';
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../../shared/validation/storable-text';
import { INVALID_REQUEST_MESSAGE } from './errors-plugin';

/**
 * One rule for every route's text: a NUL or a lone surrogate anywhere in the body, the query or
 * the path parameters is refused with 400 before any handler runs. PostgreSQL cannot store either,
 * so without this a route that forgot would answer 500 instead of saying what is wrong.
 */
export function registerStorableTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const found = unstorableTextPath(value);
      if (found === null) continue;
      const key = part === 'body' ? found : `${part}.${found}`;
      return reply.status(400).send({
        message: INVALID_REQUEST_MESSAGE,
        errors: { [key]: [UNSTORABLE_TEXT_MESSAGE] },
      } satisfies ApiErrorBody);
    }
  });
}
