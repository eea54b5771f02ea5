import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Every refused change of reading is in the audit trail (issue: "every attempt audited"): a score
 * outside its scale, someone else's read, a second submit, a disabled member as a reader, a list
 * whose count changed. A plugin's handlers may record a refusal themselves, with more detail; they
 * put the request in `recorded`, and this hook writes the rest: the call, its status and its ids.
 */
const AUDITED_REFUSALS = new Set([403, 409, 422]);

export function auditRefusedChanges(app: FastifyInstance, recorded: WeakSet<FastifyRequest>): void {
  // Before the answer is sent, so a caller who sees the refusal finds it in the trail.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD') return payload;
    const status = reply.statusCode;
    // A refusal of what was asked: not allowed (403), no longer possible (409), not acceptable
    // (422). A request that is not one at all (malformed JSON, unknown keys: 400) leaves no trace,
    // as everywhere else, nor does one without a member to name (401).
    if (!AUDITED_REFUSALS.has(status)) return payload;
    if (recorded.has(request) || !request.staff) return payload;
    const params = (request.params ?? {}) as Record<string, unknown>;
    const id = (key: string) => (typeof params[key] === 'string' ? (params[key] as string) : null);
    const applicationId = id('applicationId');
    await request.audit.record({
      action: 'review.refused',
      // A malformed id is not an application: the entry keeps it out of the application's history.
      applicationId: applicationId && /^[0-9a-f-]{36}$/i.test(applicationId) ? applicationId : null,
      detail: {
        call: `${request.method} ${request.routeOptions.url ?? request.url}`,
        status,
        read_id: id('readId'),
      },
    });
    return payload;
  });
}
