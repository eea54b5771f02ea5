import type { FastifyError, FastifyInstance } from 'fastify';
import { type ApiErrorBody, GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { fieldErrors } from '../../shared/validation/field-errors';
import { HttpError } from './http-error';
import { isZodError } from './zod-validation';

const MESSAGES_BY_CODE: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
};

export const INVALID_REQUEST_MESSAGE = 'Some of the information sent is not valid.';
export const NOT_FOUND_MESSAGE = 'There is nothing at this address.';

/**
 * Every error leaves as `{message, errors?}`. Client errors say what to fix; server errors say
 * only the generic sentence, and the details stay in the log with the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      const body: ApiErrorBody = { message: error.message };
      if (error.errors) body.errors = error.errors;
      if (error.code) body.code = error.code;
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.statusCode).send(body);
    }
    if (isZodError(error.validation ?? error) || error.code === 'FST_ERR_VALIDATION') {
      const source = error.validation ?? error;
      const errors = isZodError(source) ? fieldErrors(source) : { _: [error.message] };
      return reply
        .status(400)
        .send({ message: INVALID_REQUEST_MESSAGE, errors } satisfies ApiErrorBody);
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply
        .status(status)
        .send({ message: GENERIC_SERVER_ERROR_MESSAGE } satisfies ApiErrorBody);
    }
    if (status === 429 && error.message) {
      return reply.status(status).send({ message: error.message } satisfies ApiErrorBody);
    }
    const message = MESSAGES_BY_CODE[error.code] ?? error.message ?? INVALID_REQUEST_MESSAGE;
    return reply.status(status).send({ message } satisfies ApiErrorBody);
  });
}
