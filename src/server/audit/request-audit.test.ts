import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AuditActor, AuditEntry } from './audit-trail';
import { NO_AUDIT_ACTOR_MESSAGE, registerRequestAudit } from './request-audit';

const member: AuditActor = { type: 'staff', id: 'member-1', label: 'reader@example.edu' };

/** An app whose requests act as `member` when they carry `x-member`, and what it recorded. */
async function appRecording() {
  const recorded: AuditEntry[] = [];
  const app = Fastify({ logger: false });
  registerRequestAudit(app, { record: async (entry) => void recorded.push(entry) }, (request) =>
    request.headers['x-member'] ? member : null,
  );
  app.get('/read', async (request) => {
    await request.audit.record({ action: 'application.view', applicationId: 'app-1' });
    return 'ok';
  });
  app.get('/link', async (request) => {
    await request.audit.record({
      actor: { type: 'service_link', id: 'link-1' },
      action: 'service_link.used',
    });
    return 'ok';
  });
  await app.ready();
  return { app, recorded };
}

describe('request.audit', () => {
  it("records as the request's actor, from the request's address", async () => {
    const { app, recorded } = await appRecording();
    const answer = await app.inject({
      url: '/read',
      headers: { 'x-member': '1' },
      remoteAddress: '203.0.113.9',
    });
    expect(answer.statusCode).toBe(200);
    expect(recorded).toEqual([
      { actor: member, action: 'application.view', applicationId: 'app-1', ip: '203.0.113.9' },
    ]);
    await app.close();
  });

  it('keeps an actor the entry names, with the address still the request’s', async () => {
    const { app, recorded } = await appRecording();
    await app.inject({ url: '/link', headers: { 'x-member': '1' }, remoteAddress: '203.0.113.9' });
    expect(recorded).toEqual([
      {
        actor: { type: 'service_link', id: 'link-1' },
        action: 'service_link.used',
        ip: '203.0.113.9',
      },
    ]);
    await app.close();
  });

  it('records nothing for a request with no actor when the entry names none', async () => {
    const { app, recorded } = await appRecording();
    const answer = await app.inject('/read');
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toMatchObject({ message: NO_AUDIT_ACTOR_MESSAGE });
    expect(recorded).toEqual([]);
    await app.close();
  });
});
