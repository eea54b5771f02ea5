import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApplicationDetail,
  ApplicationHistoryEntry,
  ApplicationNeighbours,
} from '../../shared/staff/application-api';
import { accounts, applicationSisIds, applications, auditEvents } from '../db/schema';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { uploadDocument } from '../test/document-helpers';
import { makePng } from '../test/sample-files';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const API = '/staff/api/applications';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe.each(databaseKinds)('one application in the staff console on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
  });
  afterAll(async () => {
    await app.close();
  });

  function get(url: string, cookie: string | null = reader.cookie) {
    return app.inject({ url, headers: cookie ? { cookie } : {} });
  }

  /** Applications with names in the order given, all in one entry term of their own. */
  async function insertNamed(lastNames: string[]): Promise<{ term: string; ids: string[] }> {
    const db = testDatabaseOf(app);
    const term = `t${randomBytes(4).toString('hex')}`;
    const ids: string[] = [];
    for (const [index, lastName] of lastNames.entries()) {
      const [account] = await db
        .insert(accounts)
        .values({ email: `${term}-${index}@example.edu` })
        .returning({ id: accounts.id });
      const id = account?.id as string;
      ids.push(id);
      await db.insert(applications).values({
        accountId: id,
        answers: { entry_term: term, first_name: 'Sam', last_name: lastName },
      });
    }
    return { term, ids };
  }

  async function actionsFor(applicationId: string): Promise<string[]> {
    const rows = await testDatabaseOf(app)
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, applicationId))
      .orderBy(auditEvents.seq);
    return rows.map((row) => row.action);
  }

  it('reads an application with its answers and records the read', async () => {
    const { ids } = await insertNamed(['Okafor']);
    const id = ids[0] as string;
    const response = await get(`${API}/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    const detail = response.json<ApplicationDetail>();
    expect(detail).toMatchObject({
      id,
      status: 'started',
      submitted_at: null,
      view: { answer: { first_name: 'Sam', last_name: 'Okafor' }, document_answer: {} },
    });
    expect(detail.email).toMatch(/-0@example\.edu$/);
    expect(detail.checklist.items.length).toBeGreaterThan(0);
    expect(detail.sis_id).toBeNull();
    expect(await actionsFor(id)).toEqual(['application.view']);
  });

  it("shows the student information system's id with who wrote it back and when", async () => {
    const { ids } = await insertNamed(['Banerjee']);
    const id = ids[0] as string;
    const setAt = new Date('2026-11-20T08:30:00Z');
    await testDatabaseOf(app)
      .insert(applicationSisIds)
      .values({ accountId: id, sisId: 'S0042', setByLabel: 'Banner nightly', setAt });
    const detail = (await get(`${API}/${id}`)).json<ApplicationDetail>();
    expect(detail.sis_id).toEqual({
      value: 'S0042',
      set_by: 'Banner nightly',
      set_at: setAt.toISOString(),
    });
  });

  it('answers 404 for an application that does not exist and 400 for an id that is not one', async () => {
    const missing = await get(`${API}/${MISSING_ID}`);
    expect(missing.statusCode).toBe(404);
    const garbage = await get(`${API}/not-an-id`);
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toBeTruthy();
    for (const part of ['history', 'neighbours', 'pdf', 'documents/hs_transcript/pdf']) {
      expect((await get(`${API}/${MISSING_ID}/${part}`)).statusCode, part).toBe(404);
    }
    expect(await actionsFor(MISSING_ID)).toEqual([]);
  });

  it('refuses applicants and people without a session', async () => {
    const { ids } = await insertNamed(['Nakamura']);
    const applicant = await signedInApplicant(
      app,
      `viewer-${randomBytes(3).toString('hex')}@example.edu`,
    );
    expect((await get(`${API}/${ids[0]}`, applicant)).statusCode).toBe(401);
    expect((await get(`${API}/${ids[0]}`, null)).statusCode).toBe(401);
    expect(await actionsFor(ids[0] as string)).toEqual([]);
  });

  it('finds the previous and next application through the list the reader came from', async () => {
    const { term, ids } = await insertNamed(['Adams', 'Baker', 'Clark', 'Diaz', 'Evans']);
    const list = `term=${term}&sort=name&page_size=2`;
    const at = async (id: string, page: number) => {
      const response = await get(`${API}/${id}/neighbours?${list}&page=${page}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ApplicationNeighbours>();
    };
    // Baker is last on page 1: next is Clark, the first on page 2.
    expect(await at(ids[1] as string, 1)).toEqual({
      previous: ids[0],
      next: ids[2],
      previous_page: 1,
      next_page: 2,
      position: 2,
      total: 5,
    });
    // Clark found on page 2 even though the address still says page 1.
    expect(await at(ids[2] as string, 1)).toMatchObject({
      previous: ids[1],
      next: ids[3],
      position: 3,
    });
    expect(await at(ids[0] as string, 1)).toMatchObject({ previous: null, previous_page: null });
    expect(await at(ids[4] as string, 3)).toMatchObject({
      next: null,
      next_page: null,
      position: 5,
    });
    const outside = await insertNamed(['Fisher']);
    expect(await at(outside.ids[0] as string, 1)).toMatchObject({ position: null, next: null });
  });

  it('refuses neighbours for a list query that is not one', async () => {
    const { ids } = await insertNamed(['Garcia']);
    for (const query of ['sort=shoe_size', 'page_size=1000', 'colour=red', 'email=a@example.edu']) {
      const response = await get(`${API}/${ids[0]}/neighbours?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toBeTruthy();
    }
  });

  it('shows the application’s own audit history, newest first', async () => {
    const { ids } = await insertNamed(['Hughes']);
    const id = ids[0] as string;
    await get(`${API}/${id}`);
    await get(`${API}/${id}`);
    const response = await get(`${API}/${id}/history`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    const history = response.json<ApplicationHistoryEntry[]>();
    expect(history.map((entry) => entry.action)).toEqual(['application.view', 'application.view']);
    expect(history[0]?.actor).toBe(reader.email);
    expect((history[0]?.seq ?? 0) > (history[1]?.seq ?? 0)).toBe(true);
  });

  it('shows a document inline or as a download, the application PDF, and records each', async () => {
    const email = `docs-${randomBytes(3).toString('hex')}@example.edu`;
    const applicant = await signedInApplicant(app, email);
    const saved = await callAs(app, applicant, 'PUT', '/api/answer', {
      first_name: 'Iris',
      last_name: 'Jensen',
    });
    expect(saved.statusCode, saved.body).toBeLessThan(300);
    const converted = await uploadDocument(
      app,
      applicant,
      'hs_transcript',
      makePng({ width: 20, height: 20 }),
      'transcript.png',
    );
    expect(converted.status).toBe('COMPLETED');
    const [account] = await testDatabaseOf(app)
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    const id = account?.id as string;

    const inline = await get(`${API}/${id}/documents/hs_transcript/pdf`);
    expect(inline.statusCode, inline.body).toBe(200);
    expect(inline.headers['content-disposition']).toBe('inline; filename="transcript.pdf"');
    expect(inline.headers['cache-control']).toContain('no-store');
    expect(inline.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const download = await get(`${API}/${id}/documents/hs_transcript/pdf?disposition=attachment`);
    expect(download.headers['content-disposition']).toBe('attachment; filename="transcript.pdf"');
    expect((await get(`${API}/${id}/documents/first_name/pdf`)).statusCode).toBe(404);
    expect((await get(`${API}/${id}/documents/personal_statement_doc/pdf`)).statusCode).toBe(404);
    expect(
      (await get(`${API}/${id}/documents/hs_transcript/pdf?disposition=sideways`)).statusCode,
    ).toBe(400);

    const pdf = await get(`${API}/${id}/pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(
      /^attachment; filename="transfer-application-Iris-Jensen\.pdf"$/,
    );
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const inlinePdf = await get(`${API}/${id}/pdf?disposition=inline`);
    expect(inlinePdf.headers['content-disposition']).toMatch(/^inline;/);

    const staffActions = (await actionsFor(id)).filter((action) => action !== 'checklist.mark');
    expect(staffActions).toEqual([
      'document.view',
      'document.view',
      'application_pdf.view',
      'application_pdf.view',
    ]);
  });
});
