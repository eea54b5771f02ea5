import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPageResponse } from '../../shared/staff/staff-api';
import { AUDIT_ACTIONS, type AuditEntry, createAuditTrail } from '../audit/audit-trail';
import { INVALID_REQUEST_MESSAGE } from '../http/errors-plugin';
import {
  STAFF_FORBIDDEN_MESSAGE,
  STAFF_SESSION_ENDED_MESSAGE,
  STEP_UP_REQUIRED_CODE,
} from '../staff/staff-sessions';
import { insertApplications } from '../test/export-helpers';
import { signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testAuditKeys, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import {
  AUDIT_ACTION_INVALID_MESSAGE,
  AUDIT_CSV_HEADER,
  AUDIT_DATES_INVALID_MESSAGE,
} from './audit-log-routes';

const DAY_MS = 86_400_000;
const day = (offsetDays = 0) =>
  new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

describe.each(databaseKinds)('audit trail in the console on %s', (kind) => {
  let app: FastifyInstance;
  let admin: { cookie: string; staffId: string; email: string };

  beforeAll(async () => {
    app = await buildTestApp(kind);
    admin = await signedInStaff(app, { role: 'admin' });
  });
  afterAll(async () => {
    await app.close();
  });

  const record = (entry: AuditEntry) =>
    createAuditTrail(testDatabaseOf(app), testAuditKeys).record(entry);
  const get = (url: string, cookie = admin.cookie) =>
    app.inject({ method: 'GET', url, headers: { cookie } });
  async function page(query: string): Promise<AuditPageResponse> {
    const response = await get(`/staff/api/audit?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }
  const seqs = (response: AuditPageResponse) => response.events.map((event) => event.seq);

  /** Entries about one new application: two staff members, a link and another application. */
  async function arranged() {
    const application = randomUUID();
    const elsewhere = randomUUID();
    const link = randomUUID();
    const tag = randomUUID().slice(0, 8);
    const ana = { type: 'staff', id: randomUUID(), label: `ana.${tag}@example.edu` } as const;
    const ben = { type: 'staff', id: randomUUID(), label: `ben.${tag}@example.edu` } as const;
    await record({
      actor: ana,
      action: 'application.view',
      applicationId: application,
      ip: '192.0.2.1',
    });
    await record({ actor: ben, action: 'document.view', applicationId: application });
    await record({
      actor: { type: 'service_link', id: link },
      action: 'service_link.used',
      applicationId: application,
      detail: { what: 'view' },
    });
    await record({ actor: ana, action: 'application.view', applicationId: elsewhere });
    return { application, elsewhere, link, ana, ben };
  }

  it('lists an application’s entries newest first, with who, what, when and where', async () => {
    const { application, link, ana, ben } = await arranged();
    const response = await get(`/staff/api/audit?application=${application}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body: AuditPageResponse = response.json();
    expect(body.next_before).toBeNull();
    expect(body.events.map((event) => [event.actor_id, event.action])).toEqual([
      [link, 'service_link.used'],
      [ben.id, 'document.view'],
      [ana.id, 'application.view'],
    ]);
    expect(body.events[2]).toEqual({
      seq: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      actor_type: 'staff',
      actor_id: ana.id,
      actor_label: ana.label,
      action: 'application.view',
      application_id: application,
      application_name: null,
      detail: {},
      ip: '192.0.2.1',
    });
    expect(body.events[0]?.detail).toEqual({ what: 'view' });
  });

  it('names the applicant of an entry about an application, and no one for other entries', async () => {
    const tag = randomUUID().slice(0, 8);
    const [named, unnamed] = await insertApplications(app, `audit-${tag}`, [
      { answers: { first_name: ' Łukasz ', last_name: 'Søndergaard' } },
      { answers: {} },
    ]);
    const gone = randomUUID();
    const cleo = { type: 'staff', id: randomUUID(), label: `cleo.${tag}@example.edu` } as const;
    for (const applicationId of [named, unnamed, gone]) {
      await record({ actor: cleo, action: 'application.view', applicationId });
    }
    await record({ actor: cleo, action: 'applications.export_csv', detail: { rows: 42 } });
    const body = await page(`actor=${cleo.label}`);
    expect(
      body.events.map((event) => [event.action, event.application_id, event.application_name]),
    ).toEqual([
      ['applications.export_csv', null, null],
      ['application.view', gone, null],
      ['application.view', unnamed, null],
      ['application.view', named, 'Łukasz Søndergaard'],
    ]);
  });

  it('filters by person (address or id), link, action and days', async () => {
    const { application, elsewhere, link, ana } = await arranged();
    const byAddress = await page(`actor=${encodeURIComponent(ana.label.toUpperCase())}`);
    expect(byAddress.events.map((event) => event.application_id)).toEqual([elsewhere, application]);
    expect(seqs(await page(`actor=${ana.id}`))).toEqual(seqs(byAddress));
    expect((await page(`actor=${link}`)).events.map((event) => event.action)).toEqual([
      'service_link.used',
    ]);
    expect(
      (await page(`actor=${ana.id}&application=${application}`)).events.map((e) => e.action),
    ).toEqual(['application.view']);
    expect(
      (await page(`application=${application}&action=document.view`)).events.map((e) => e.action),
    ).toEqual(['document.view']);
    expect(
      (await page(`application=${application}&from=${day()}&to=${day()}`)).events,
    ).toHaveLength(3);
    expect((await page(`application=${application}&from=${day(1)}`)).events).toEqual([]);
    expect((await page(`application=${application}&to=${day(-1)}`)).events).toEqual([]);
    expect((await page(`actor=nobody@example.edu`)).events).toEqual([]);
  });

  it('pages through older entries with `before`', async () => {
    const application = randomUUID();
    const actor = { type: 'system', label: 'retention' } as const;
    for (let n = 0; n < 5; n++) {
      await record({
        actor,
        action: 'application.view',
        applicationId: application,
        detail: { n },
      });
    }
    const first = await page(`application=${application}&limit=2`);
    expect(first.events.map((event) => event.detail.n)).toEqual([4, 3]);
    expect(first.next_before).toBe(first.events[1]?.seq);
    const second = await page(`application=${application}&limit=2&before=${first.next_before}`);
    expect(second.events.map((event) => event.detail.n)).toEqual([2, 1]);
    const last = await page(`application=${application}&limit=2&before=${second.next_before}`);
    expect(last.events.map((event) => event.detail.n)).toEqual([0]);
    expect(last.next_before).toBeNull();
    const exact = await page(`application=${application}&limit=5`);
    expect(exact.events).toHaveLength(5);
    expect(exact.next_before).toBeNull();
  });

  it('lists the actions to filter by', async () => {
    const response = await get('/staff/api/audit/actions');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([...AUDIT_ACTIONS]);
  });

  it.each([
    ['action=application.deleted', AUDIT_ACTION_INVALID_MESSAGE, 'action'],
    [`from=${day()}&to=${day(-1)}`, AUDIT_DATES_INVALID_MESSAGE, 'to'],
    ['from=2026-13-01', INVALID_REQUEST_MESSAGE, 'from'],
    ['to=yesterday', INVALID_REQUEST_MESSAGE, 'to'],
    ['application=not-a-uuid', INVALID_REQUEST_MESSAGE, 'application'],
    ['limit=201', INVALID_REQUEST_MESSAGE, 'limit'],
    ['limit=0', INVALID_REQUEST_MESSAGE, 'limit'],
    ['before=-1', INVALID_REQUEST_MESSAGE, 'before'],
    ['role=admin', INVALID_REQUEST_MESSAGE, undefined],
  ])('refuses the filter %s with a sentence', async (query, message, field) => {
    for (const path of ['/staff/api/audit', '/staff/api/audit.csv']) {
      const response = await get(`${path}?${query}`);
      expect(response.statusCode, `${path}?${query}`).toBe(400);
      expect(response.json().message).toBe(message);
      if (field) expect(Object.keys(response.json().errors ?? {})).toContain(field);
    }
  });

  it('is for administrators only, and for signed-in staff only', async () => {
    const reader = await signedInStaff(app, { role: 'reader' });
    for (const url of ['/staff/api/audit', '/staff/api/audit/actions', '/staff/api/audit.csv']) {
      const forbidden = await get(url, reader.cookie);
      expect(forbidden.statusCode, url).toBe(403);
      expect(forbidden.json().message).toBe(STAFF_FORBIDDEN_MESSAGE);
      expect(forbidden.headers['cache-control']).toBe('no-store');
      const anonymous = await app.inject(url);
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json().message).toBe(STAFF_SESSION_ENDED_MESSAGE);
    }
  });

  it('exports the filtered trail as CSV, defusing formulas, and records the export', async () => {
    const { application, ana } = await arranged();
    await record({
      actor: { type: 'staff', id: randomUUID(), label: '=HYPERLINK("http://evil.example","x")' },
      action: 'document.view',
      applicationId: application,
      detail: { answer_key: '+1, "quoted"' },
    });
    const response = await get(`/staff/api/audit.csv?application=${application}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="audit-${day()}.csv"`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const lines = response.rawPayload.subarray(3).toString('utf8').split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(AUDIT_CSV_HEADER.join(','));
    expect(lines).toHaveLength(1 + 4 + 1);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")",document.view`);
    expect(lines[1]).toContain('"{""answer_key"":""+1, \\""quoted\\""""}"');
    expect(lines[4]).toContain(`,staff,${ana.id},${ana.label},application.view,${application},{},`);
    for (const line of lines.slice(1, 5)) expect(line).toMatch(/,[0-9a-f]{64},[0-9a-f]{64}$/);

    const exports = await page(`actor=${admin.staffId}&action=audit.export`);
    expect(exports.events[0]).toMatchObject({
      actor_type: 'staff',
      actor_label: admin.email,
      application_id: null,
      detail: { filters: { application }, rows: 4 },
    });
  });

  it('needs a fresh second factor to export', async () => {
    const stale = await signedInStaff(app, { role: 'admin', fresh2fa: false });
    const refused = await get('/staff/api/audit.csv', stale.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(STEP_UP_REQUIRED_CODE);
    // Reading the trail itself needs no step-up.
    expect((await get('/staff/api/audit?limit=1', stale.cookie)).statusCode).toBe(200);
    expect((await page(`actor=${stale.staffId}&action=audit.export`)).events).toEqual([]);
  });
});
