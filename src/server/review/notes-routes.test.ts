import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApplicationNote,
  REVIEW_API,
  REVIEW_MESSAGES_API,
} from '../../shared/review/review-api';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { accounts, auditEvents } from '../db/schema';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { listRoutes } from '../test/route-list';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const NOTE_TEXT = 'INTERNAL-NOTE-c41d: call the registrar about the transcript';

describe.each(databaseKinds)('internal notes on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  let admin: SignedInStaff;
  let applicant: { id: string; cookie: string };

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
    admin = await signedInStaff(app, { role: 'admin' });
    const email = `noted.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    expect(
      (await callAs(app, cookie, 'PUT', '/api/answer', validApplicationAnswers())).statusCode,
    ).toBe(200);
    expect((await callAs(app, cookie, 'POST', '/api/submit')).statusCode).toBe(200);
    const [row] = await testDatabaseOf(app)
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    applicant = { id: row?.id as string, cookie };
  });
  afterAll(async () => {
    await app.close();
  });

  it('adds notes with their authors, lists them newest first, audited without their text', async () => {
    const one = await callAs(app, reader.cookie, 'POST', REVIEW_API.notes(applicant.id), {
      body: '  First look: strong.  ',
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.headers['cache-control']).toBe('no-store');
    expect(one.json()).toMatchObject({
      author: reader.email.split('@')[0],
      body: 'First look: strong.',
    });
    const two = await callAs(app, admin.cookie, 'POST', REVIEW_API.notes(applicant.id), {
      body: NOTE_TEXT,
    });
    expect(two.statusCode, two.body).toBe(200);
    const listed = await callAs(app, reader.cookie, 'GET', REVIEW_API.notes(applicant.id));
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    expect((listed.json() as ApplicationNote[]).map((note) => note.body)).toEqual([
      NOTE_TEXT,
      'First look: strong.',
    ]);
    const added = await testDatabaseOf(app)
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.applicationId, applicant.id),
          eq(auditEvents.action, 'application.note_added'),
        ),
      );
    expect(added).toHaveLength(2);
    expect(JSON.stringify(added)).not.toContain('strong');
  });

  it('refuses an empty note, unknown keys, and unknown applications', async () => {
    const empty = await callAs(app, reader.cookie, 'POST', REVIEW_API.notes(applicant.id), {
      body: '   ',
    });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json())).toContain(REVIEW_MESSAGES_API.noteEmpty);
    const extra = await callAs(app, reader.cookie, 'POST', REVIEW_API.notes(applicant.id), {
      body: 'x',
      author: 'someone',
    });
    expect(extra.statusCode).toBe(400);
    const unknown = await callAs(
      app,
      reader.cookie,
      'POST',
      REVIEW_API.notes(crypto.randomUUID()),
      {
        body: 'x',
      },
    );
    expect(unknown.statusCode).toBe(404);
    // The applicant's session never reaches a staff route.
    expect(
      (await callAs(app, applicant.cookie, 'GET', REVIEW_API.notes(applicant.id))).statusCode,
    ).toBe(401);
  });

  it("never puts a note in the applicant's own responses", async () => {
    const routes = listRoutes(app).filter(
      (route) =>
        route.methods.includes('GET') &&
        route.url.startsWith('/api/') &&
        !route.url.startsWith('/api/v1') &&
        !route.url.includes(':') &&
        !route.url.includes('*'),
    );
    expect(routes.length).toBeGreaterThan(3);
    for (const route of routes) {
      const response = await callAs(app, applicant.cookie, 'GET', route.url);
      expect(response.body, route.url).not.toContain('INTERNAL-NOTE-c41d');
    }
  });
});
