import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_PDF_URL } from '../../shared/api/application-pdf';
import {
  DECISION_LETTER_PDF_URL,
  DECISION_REPLY_URL,
  DECISION_URL,
  STATUS_MESSAGES,
  STATUS_URL,
} from '../../shared/api/status';
import type { ApplicationHistoryEntry } from '../../shared/staff/application-api';
import { DECISION_MESSAGES, decisionUrls } from '../../shared/staff/decision-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { createAuditTrail } from '../audit/audit-trail';
import { accounts, applications, auditEvents, decisions, outbox } from '../db/schema';
import { outboxMailer } from '../mail/mailer';
import { callAs, signedInApplicant, waitForMail } from '../test/accounts-helpers';
import { insertApplications } from '../test/export-helpers';
import { extractPdfText } from '../test/pdf-text';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testAuditKeys, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createDecisionService, DECISION_MAIL_SUBJECT } from './decision-service';

const REPLY_DEADLINE = '2099-12-31';
const HOSTILE_NAME = '**Bold** <script>alert(1)</script>';

describe.each(databaseKinds)('decisions on %s', (kind) => {
  let app: FastifyInstance;
  let admin: SignedInStaff;
  let reader: SignedInStaff;
  let counter = 0;
  let tenant: TenantConfig;

  beforeAll(async () => {
    app = await buildTestApp(kind, {
      tenant: (sample) => {
        tenant = { ...sample, decisions: { ...sample.decisions, reply_deadline: REPLY_DEADLINE } };
        return tenant;
      },
    });
    admin = await signedInStaff(app, { role: 'admin' });
    reader = await signedInStaff(app, { role: 'reader' });
  });
  afterAll(async () => {
    await app.close();
  });

  const db = () => testDatabaseOf(app);
  /** A release run as a server's timer makes it. */
  const releaser = () =>
    createDecisionService({
      db: db(),
      tenant,
      mailer: outboxMailer(db(), app.log),
      audit: createAuditTrail(db(), testAuditKeys),
      env: {},
    });
  const staff = (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: unknown,
    member: SignedInStaff = admin,
  ) => callAs(app, member.cookie, method, url, payload);

  async function idOf(email: string): Promise<string> {
    const [row] = await db()
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    return row?.id as string;
  }

  /** An applicant who submitted a complete application through the API. */
  async function submitted(): Promise<{ id: string; cookie: string; email: string }> {
    const email = `decided${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const saved = await callAs(app, cookie, 'PUT', '/api/answer', validApplicationAnswers());
    expect(saved.statusCode, saved.body).toBe(200);
    const done = await callAs(app, cookie, 'POST', '/api/submit');
    expect(done.statusCode, done.body).toBe(200);
    return { id: await idOf(email), cookie, email };
  }

  const decisionRows = () => db().select().from(decisions).orderBy(asc(decisions.accountId));
  const auditCount = async () =>
    (await db().select({ seq: auditEvents.seq }).from(auditEvents)).length;
  const actionsOf = async (id: string) =>
    db()
      .select({
        action: auditEvents.action,
        actorType: auditEvents.actorType,
        detail: auditEvents.detail,
      })
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, id), sql`${auditEvents.action} like 'decision.%'`))
      .orderBy(asc(auditEvents.seq));
  const decisionMails = (to: string) =>
    db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.to, to), eq(outbox.subject, DECISION_MAIL_SUBJECT)));

  /** The state every refused call must leave as it found. */
  const snapshot = async () => ({ rows: await decisionRows(), audit: await auditCount() });

  async function applicationPdfText(cookie: string): Promise<string> {
    for (let attempt = 0; attempt < 600; attempt++) {
      const status = (await callAs(app, cookie, 'GET', '/api/pdf')).json();
      if (status.status === 'COMPLETED') {
        const file = await callAs(app, cookie, 'GET', APPLICATION_PDF_URL);
        return extractPdfText(file.rawPayload);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the application PDF was not made');
  }

  /** Everything the applicant's side answers, as text. */
  async function applicantSees(cookie: string): Promise<string> {
    const calls = await Promise.all([
      callAs(app, cookie, 'GET', '/api/profile'),
      callAs(app, cookie, 'GET', DECISION_URL),
      callAs(app, cookie, 'GET', STATUS_URL),
    ]);
    return calls.map((response) => response.body).join('\n');
  }

  it('keeps a recorded decision from the applicant until release, then shows it with its letter', async () => {
    const applicant = await submitted();
    await db()
      .update(applications)
      .set({
        answers: sql`${applications.answers} || ${JSON.stringify({ first_name: HOSTILE_NAME })}::jsonb`,
      })
      .where(eq(applications.accountId, applicant.id));

    const recorded = await staff('PUT', decisionUrls.record(applicant.id), { code: 'admit' });
    expect(recorded.statusCode, recorded.body).toBe(200);
    expect(recorded.headers['cache-control']).toContain('no-store');
    expect(recorded.json()).toMatchObject({ code: 'admit', label: 'Admit', released_at: null });

    // Recorded and changed, never released: nothing of it in any answer to the applicant.
    expect(
      (await staff('PUT', decisionUrls.record(applicant.id), { code: 'deny' })).statusCode,
    ).toBe(200);
    expect(
      (await staff('PUT', decisionUrls.record(applicant.id), { code: 'deny' })).statusCode,
    ).toBe(200);
    expect(
      (await staff('PUT', decisionUrls.record(applicant.id), { code: 'admit' })).statusCode,
    ).toBe(200);
    const before = await applicantSees(applicant.cookie);
    expect(before).not.toMatch(/admit|Admit|deny|Deny|Congratulations/);
    expect((await callAs(app, applicant.cookie, 'GET', DECISION_URL)).json()).toBeNull();
    const letterBefore = await callAs(app, applicant.cookie, 'GET', DECISION_LETTER_PDF_URL);
    expect(letterBefore.statusCode).toBe(404);
    expect(letterBefore.body).not.toMatch(/admit/i);
    const pdfText = await applicationPdfText(applicant.cookie);
    expect(pdfText).not.toMatch(/Admit|Congratulations/);
    const replyBefore = await callAs(app, applicant.cookie, 'POST', DECISION_REPLY_URL, {
      reply: 'accepted',
    });
    expect(replyBefore.statusCode).toBe(404);
    expect(replyBefore.json().message).toBe(STATUS_MESSAGES.noDecision);
    expect(await decisionMails(applicant.email)).toEqual([]);

    const detail = (
      await staff('GET', `/staff/api/applications/${applicant.id}`, undefined, reader)
    ).json();
    expect(detail.decision).toMatchObject({ code: 'admit', label: 'Admit', released_at: null });

    const released = await staff('POST', decisionUrls.release(applicant.id), {});
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().released_at).not.toBeNull();

    const shown = await callAs(app, applicant.cookie, 'GET', DECISION_URL);
    expect(shown.headers['cache-control']).toContain('no-store');
    const decision = shown.json();
    expect(decision).toMatchObject({
      label: 'Admit',
      offer: true,
      reply: null,
      reply_deadline: `${REPLY_DEADLINE}T23:59:59.999Z`,
    });
    // The applicant's own name is text in the letter, never markup. The letter's headings sit
    // under the page's own heading.
    expect(decision.letter_html).toContain(
      '<h2>Congratulations, **Bold** &lt;script&gt;alert(1)&lt;/script&gt;!</h2>',
    );
    expect(decision.letter_html).not.toContain('<h1');
    expect(decision.letter_html).not.toContain('<script>');
    expect(decision.letter_html).toMatch(/<strong>[^<]+<\/strong>/);
    // The deadline's words name their moment, for the page to say in the applicant's zone.
    expect(decision.letter_html).toContain(
      `<strong><time datetime="${REPLY_DEADLINE}T23:59:59.999Z">December 31, 2099 at 11:59 PM UTC</time></strong>`,
    );

    const mail = await waitForMail(app, applicant.email, /decision on your application/);
    expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toMatch(
      /admit|Admit|Congratulations|offer/,
    );
    expect(await decisionMails(applicant.email)).toHaveLength(1);

    const letter = await callAs(app, applicant.cookie, 'GET', DECISION_LETTER_PDF_URL);
    expect(letter.statusCode).toBe(200);
    expect(letter.headers['content-type']).toBe('application/pdf');
    expect(letter.headers['cache-control']).toContain('no-store');
    const letterText = (await extractPdfText(letter.rawPayload)).replace(/\s+/g, ' ');
    expect(letterText).toContain('Northfield State University');
    expect(letterText).toContain('Congratulations, **Bold** <script>alert(1)</script>!');

    // Released: no change, no second release.
    const state = await snapshot();
    const twice = await staff('POST', decisionUrls.release(applicant.id), {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(DECISION_MESSAGES.releaseTwice);
    const changed = await staff('PUT', decisionUrls.record(applicant.id), { code: 'deny' });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().message).toBe(DECISION_MESSAGES.released);
    expect(await snapshot()).toEqual(state);

    const accepted = await callAs(app, applicant.cookie, 'POST', DECISION_REPLY_URL, {
      reply: 'accepted',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ reply: 'accepted' });
    const afterReply = await snapshot();
    const again = await callAs(app, applicant.cookie, 'POST', DECISION_REPLY_URL, {
      reply: 'declined',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(STATUS_MESSAGES.replyTwice);
    expect(await snapshot()).toEqual(afterReply);

    const seen = (
      await staff('GET', `/staff/api/applications/${applicant.id}`, undefined, reader)
    ).json();
    expect(seen.decision).toMatchObject({ code: 'admit', reply: 'accepted' });
    expect(seen.decision.replied_at).not.toBeNull();

    expect(
      (await actionsOf(applicant.id)).map((entry) => [entry.action, entry.actorType, entry.detail]),
    ).toEqual([
      ['decision.recorded', 'staff', { code: 'admit' }],
      ['decision.changed', 'staff', { code: 'deny', previous: 'admit' }],
      ['decision.changed', 'staff', { code: 'admit', previous: 'deny' }],
      ['decision.release_scheduled', 'staff', { code: 'admit', at: 'now', previous: null }],
      ['decision.released', 'system', { code: 'admit' }],
      ['decision.replied', 'applicant', { code: 'admit', reply: 'accepted' }],
    ]);
    expect(await createAuditTrail(db(), testAuditKeys).verify()).toMatchObject({ ok: true });
    // The application's history names who acted as a reader understands them.
    const history = (
      await staff('GET', `/staff/api/applications/${applicant.id}/history`, undefined, reader)
    ).json() as ApplicationHistoryEntry[];
    const actorOf = (action: string) => history.find((entry) => entry.action === action)?.actor;
    expect(actorOf('decision.recorded')).toBe(admin.email);
    expect(actorOf('decision.released')).toBe('The portal (automatic release)');
    expect(actorOf('decision.replied')).toBe('The applicant');
    const page = await staff('GET', `/staff/api/audit?action=decision.replied`);
    expect(page.statusCode, page.body).toBe(200);
  });

  it('releases at the time set, and not before', async () => {
    const applicant = await submitted();
    expect(
      (await staff('PUT', decisionUrls.record(applicant.id), { code: 'waitlist' })).statusCode,
    ).toBe(200);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await staff('POST', decisionUrls.release(applicant.id), { at });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json()).toMatchObject({ release_at: at, released_at: null });
    expect(await applicantSees(applicant.cookie)).not.toMatch(/waitlist|Waitlist/);

    // Changing the code before the release is still allowed; the release sends the new one.
    expect(
      (await staff('PUT', decisionUrls.record(applicant.id), { code: 'defer' })).statusCode,
    ).toBe(200);
    const service = releaser();
    expect(await service.releaseDue()).toBe(0);
    await db()
      .update(decisions)
      .set({ releaseAt: sql`now() - interval '1 second'` })
      .where(eq(decisions.accountId, applicant.id));
    expect((await callAs(app, applicant.cookie, 'GET', DECISION_URL)).json()).toBeNull();
    // What the timer of a server that runs jobs does every 30 seconds.
    expect(await service.releaseDue()).toBeGreaterThanOrEqual(1);
    expect(await service.releaseDue()).toBe(0);
    expect((await callAs(app, applicant.cookie, 'GET', DECISION_URL)).json()).toMatchObject({
      label: 'Defer',
      offer: false,
    });
    await waitForMail(app, applicant.email, /decision on your application/);
    expect(await decisionMails(applicant.email)).toHaveLength(1);
    expect((await actionsOf(applicant.id)).map((entry) => entry.action)).toEqual([
      'decision.recorded',
      'decision.release_scheduled',
      'decision.changed',
      'decision.released',
    ]);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const applicant = await submitted();
    const started = `started${++counter}.${kind}@example.edu`;
    const startedCookie = await signedInApplicant(app, started);
    await callAs(app, startedCookie, 'PUT', '/api/answer', { first_name: 'Ana' });
    const startedId = await idOf(started);

    const refusals: Array<[string, () => ReturnType<typeof staff>, number, string]> = [
      [
        'unsubmitted',
        () => staff('PUT', decisionUrls.record(startedId), { code: 'admit' }),
        409,
        DECISION_MESSAGES.notSubmitted,
      ],
      [
        'unknown application',
        () => staff('PUT', decisionUrls.record(randomUUID()), { code: 'admit' }),
        404,
        '',
      ],
      [
        'unknown code',
        () => staff('PUT', decisionUrls.record(applicant.id), { code: 'accept' }),
        400,
        DECISION_MESSAGES.code,
      ],
      ['no code', () => staff('PUT', decisionUrls.record(applicant.id), {}), 400, ''],
      [
        'a reader',
        () => staff('PUT', decisionUrls.record(applicant.id), { code: 'admit' }, reader),
        403,
        '',
      ],
      [
        'release without a decision',
        () => staff('POST', decisionUrls.release(applicant.id), {}),
        409,
        DECISION_MESSAGES.noDecision,
      ],
      [
        'release of an unknown application',
        () => staff('POST', decisionUrls.release(randomUUID()), {}),
        404,
        '',
      ],
      [
        'a malformed release time',
        () => staff('POST', decisionUrls.release(applicant.id), { at: 'tomorrow' }),
        400,
        '',
      ],
    ];
    for (const [name, call, status, message] of refusals) {
      const before = await snapshot();
      const response = await call();
      expect(response.statusCode, `${name}: ${response.body}`).toBe(status);
      if (message) expect(response.json().message, name).toBe(message);
      expect(await snapshot(), name).toEqual(before);
    }

    expect(
      (await staff('PUT', decisionUrls.record(applicant.id), { code: 'admit' })).statusCode,
    ).toBe(200);
    const before = await snapshot();
    const past = await staff('POST', decisionUrls.release(applicant.id), {
      at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({
      message: DECISION_MESSAGES.releaseInPast,
      errors: { at: [DECISION_MESSAGES.releaseInPast] },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('takes a reply only to a released offer, once, by the deadline', async () => {
    const denied = await submitted();
    await staff('PUT', decisionUrls.record(denied.id), { code: 'deny' });
    await staff('POST', decisionUrls.release(denied.id), {});
    expect((await callAs(app, denied.cookie, 'GET', DECISION_URL)).json()).toMatchObject({
      label: 'Deny',
      offer: false,
      reply_deadline: null,
    });
    let before = await snapshot();
    const notOffer = await callAs(app, denied.cookie, 'POST', DECISION_REPLY_URL, {
      reply: 'accepted',
    });
    expect(notOffer.statusCode).toBe(409);
    expect(notOffer.json().message).toBe(STATUS_MESSAGES.replyNotOffer);
    expect(await snapshot()).toEqual(before);

    const late = await submitted();
    await staff('PUT', decisionUrls.record(late.id), { code: 'admit' });
    await staff('POST', decisionUrls.release(late.id), {});
    await db()
      .update(decisions)
      .set({ replyDeadline: new Date(Date.now() - 1000) })
      .where(eq(decisions.accountId, late.id));
    before = await snapshot();
    const closed = await callAs(app, late.cookie, 'POST', DECISION_REPLY_URL, {
      reply: 'accepted',
    });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe(STATUS_MESSAGES.replyClosed);
    const bad = await callAs(app, late.cookie, 'POST', DECISION_REPLY_URL, { reply: 'maybe' });
    expect(bad.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('records and releases a batch over the list’s filters, submitted applications only', async () => {
    const tag = `BATCH${kind.toUpperCase()}`;
    const ids = await insertApplications(app, tag, [
      { answers: { first_name: 'One' }, status: 'submitted', submittedAt: '2026-02-01T10:00:00Z' },
      { answers: { first_name: 'Two' }, status: 'submitted', submittedAt: '2026-02-02T10:00:00Z' },
      {
        answers: { first_name: 'Three' },
        status: 'submitted',
        submittedAt: '2026-02-03T10:00:00Z',
      },
      { answers: { first_name: 'Four' }, status: 'started' },
    ]);
    const query = `term=${tag}`;

    for (const [payload, message] of [
      [{ query, code: 'nope' }, DECISION_MESSAGES.code],
      [{ query: 'term=NOTHING', code: 'admit' }, DECISION_MESSAGES.batchEmpty],
      [{ query: `${query}&page=2`, code: 'admit' }, ''],
      [{ query: 'status=unknown', code: 'admit' }, ''],
    ] as const) {
      const before = await snapshot();
      const refused = await staff('POST', decisionUrls.batch, payload);
      expect(refused.statusCode, refused.body).toBe(400);
      if (message) expect(refused.json().message).toBe(message);
      expect(await snapshot()).toEqual(before);
    }
    expect(
      (await staff('POST', decisionUrls.batch, { query, code: 'admit' }, reader)).statusCode,
    ).toBe(403);

    const recorded = await staff('POST', decisionUrls.batch, { query, code: 'waitlist' });
    expect(recorded.statusCode, recorded.body).toBe(200);
    expect(recorded.json()).toEqual({ count: 3, skipped: 1 });

    const list = await staff(
      'GET',
      `/staff/api/applications?${query}&decision=waitlist&sort=name`,
      undefined,
      reader,
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(
      list
        .json()
        .applications.map((row: Record<string, unknown>) => [
          row.first_name,
          row.decision,
          row.decision_label,
          row.decision_released,
        ]),
    ).toEqual([
      ['One', 'waitlist', 'Waitlist', false],
      ['Three', 'waitlist', 'Waitlist', false],
      ['Two', 'waitlist', 'Waitlist', false],
    ]);
    const none = await staff(
      'GET',
      `/staff/api/applications?${query}&decision=admit`,
      undefined,
      reader,
    );
    expect(none.json().total).toBe(0);
    const unfiltered = (
      await staff('GET', `/staff/api/applications?${query}`, undefined, reader)
    ).json();
    expect(
      unfiltered.applications.find((row: { first_name: string }) => row.first_name === 'Four'),
    ).toMatchObject({
      decision: null,
      decision_label: null,
      decision_released: false,
    });

    const past = await staff('POST', decisionUrls.batchRelease, {
      query,
      at: '2020-01-01T00:00:00Z',
    });
    expect(past.statusCode).toBe(400);
    const released = await staff('POST', decisionUrls.batchRelease, { query });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toEqual({ count: 3, skipped: 1 });
    const rows = (await decisionRows()).filter((row) => ids.includes(row.accountId));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.releasedAt).not.toBeNull();
    for (const index of [0, 1, 2]) {
      await waitForMail(app, `${tag}-${index}@example.edu`, /decision on your application/);
      expect(await decisionMails(`${tag}-${index}@example.edu`)).toHaveLength(1);
    }
    expect(await decisionMails(`${tag}-3@example.edu`)).toEqual([]);

    // Released decisions are left alone by a later batch.
    expect((await staff('POST', decisionUrls.batch, { query, code: 'deny' })).json()).toEqual({
      count: 0,
      skipped: 4,
    });
    expect((await staff('POST', decisionUrls.batchRelease, { query })).json()).toEqual({
      count: 0,
      skipped: 4,
    });

    const batches = await db()
      .select({ action: auditEvents.action, detail: auditEvents.detail })
      .from(auditEvents)
      .where(
        sql`${auditEvents.detail}->>'batch' = 'true' and ${auditEvents.detail}->>'query' = ${query}`,
      )
      .orderBy(asc(auditEvents.seq));
    expect(
      batches.map((entry) => [entry.action, entry.detail.count, entry.detail.skipped]),
    ).toEqual([
      ['decision.recorded', 3, 1],
      ['decision.release_scheduled', 3, 1],
      ['decision.recorded', 0, 4],
      ['decision.release_scheduled', 0, 4],
    ]);
    expect(batches[0]?.detail).toMatchObject({ code: 'waitlist', filters: { term: [tag] } });
  });

  it('lists the tenant’s codes to any reader', async () => {
    const codes = await staff('GET', decisionUrls.codes, undefined, reader);
    expect(codes.statusCode).toBe(200);
    expect(codes.json()).toEqual([
      { code: 'admit', label: 'Admit', offer: true },
      { code: 'deny', label: 'Deny', offer: false },
      { code: 'waitlist', label: 'Waitlist', offer: false },
      { code: 'defer', label: 'Defer', offer: false },
    ]);
  });
});
