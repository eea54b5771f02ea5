import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One line per request, written when the response is done: method, address (query secrets
 * redacted by the logger's serializer), status, time taken, the request id and, once bound, who
 * it acted for. Fastify's default writes a second line as each request arrives; at a few
 * thousand saves a second that line was a measurable share of the server's time and said
 * nothing the completed line does not. Fastify's other lines (errors, stream failures, unknown
 * routes) are unchanged.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
