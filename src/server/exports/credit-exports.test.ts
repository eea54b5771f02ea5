import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCreditStore } from '../credit/credit-store';
import { CSV_BOM } from '../http/csv-writer';
import { insertApplications, parseCsv } from '../test/export-helpers';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const CSV = '/staff/api/exports/applications.csv';

/** The sample tenant's requirements, in its order: one column each. */
const REQUIREMENT_COLUMNS = [
  'req_units_60',
  'req_gpa_2',
  'req_golden_four',
  'req_cs_preparation',
  'req_adt',
];

describe.each(databaseKinds)('transfer credit in the CSV of applications on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  /** The entry term of this run's applications: a filter on it selects them alone. */
  const tag = `cr${randomBytes(4).toString('hex')}`;
  let reviewing = '';
  let noCourses = '';
  let noSummary = '';

  const get = (url: string) =>
    app.inject({ method: 'GET', url, headers: { cookie: reader.cookie } });

  async function csvOf(query: string) {
    const response = await get(`${CSV}?term=${tag}&sort=email&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body.startsWith(CSV_BOM)).toBe(true);
    const [header, ...rows] = parseCsv(response.body.slice(CSV_BOM.length));
    return { header: header as string[], rows };
  }

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
    [reviewing, noCourses, noSummary] = (await insertApplications(app, tag, [
      { status: 'submitted', submittedAt: '2026-01-05T10:00:00Z' },
      { status: 'submitted', submittedAt: '2026-01-06T10:00:00Z' },
      {},
    ])) as [string, string, string];
    // By hand: 5 of 6 courses mapped (one needs review), and a summary without courses. The
    // major's prerequisites (cs_preparation) apply to the second only.
    const credit = createCreditStore(testDatabaseOf(app));
    await credit.saveSummary(reviewing, {
      courses: 6,
      mapped: 5,
      needsReview: 1,
      verified: 2,
      requirements: { units_60: 'in_progress', gpa_2: 'met', golden_four: 'met', adt: 'not_met' },
      colleges: ['5074'],
    });
    await credit.saveSummary(noCourses, {
      courses: 0,
      mapped: 0,
      needsReview: 0,
      verified: 0,
      requirements: {
        units_60: 'not_met',
        gpa_2: 'not_met',
        golden_four: 'not_met',
        cs_preparation: 'not_met',
        adt: 'not_met',
      },
      colleges: [],
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('offers the credit columns after the coursework totals, one per tenant requirement', async () => {
    const response = await get('/staff/api/exports/columns');
    expect(response.statusCode, response.body).toBe(200);
    const columns = response.json().columns as Array<{ id: string; label: string; group: string }>;
    const ids = columns.map((column) => column.id);
    const credit = columns.filter((column) => column.group === 'credit');
    expect(credit.map((column) => column.id)).toEqual([
      'mapped_share',
      'needs_review',
      ...REQUIREMENT_COLUMNS,
    ]);
    expect(ids.indexOf('mapped_share')).toBe(ids.indexOf('in_progress_units') + 1);
    expect(credit.find((column) => column.id === 'req_golden_four')?.label).toBe(
      'Golden Four: oral communication, written communication, critical thinking, mathematics (requirement status)',
    );
  });

  it('writes the mapped share, the count to review and each requirement’s status', async () => {
    const columns = ['id', 'mapped_share', 'needs_review', ...REQUIREMENT_COLUMNS].join(',');
    const { header, rows } = await csvOf(`columns=${columns}`);
    expect(header).toEqual(['id', 'mapped_share', 'needs_review', ...REQUIREMENT_COLUMNS]);
    const byId = new Map(rows.map((row) => [row[0], row]));
    expect(byId.get(reviewing)).toEqual([
      reviewing,
      '0.83',
      '1',
      'in_progress',
      'met',
      'met',
      '',
      'not_met',
    ]);
    expect(byId.get(noCourses)).toEqual([
      noCourses,
      '',
      '0',
      'not_met',
      'not_met',
      'not_met',
      'not_met',
      'not_met',
    ]);
    expect(byId.get(noSummary)).toEqual([noSummary, '', '', '', '', '', '', '']);
    expect(rows).toHaveLength(3);
  });

  it('selects by the credit and requirement filters, and refuses what the tenant lacks', async () => {
    const ids = async (query: string) =>
      (await csvOf(`columns=id&${query}`)).rows.map((row) => row[0]);
    expect(await ids('credit=needs_review')).toEqual([reviewing]);
    expect(await ids('requirement=golden_four:met')).toEqual([reviewing]);
    expect((await ids('requirement=units_60:not_met')).sort()).toEqual([noCourses]);
    const unknown = await get(`${CSV}?term=${tag}&requirement=golden_five:met`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'A requirement filter names one of the requirements: units_60, gpa_2, golden_four, cs_preparation, adt.',
    );
    const column = await get(`${CSV}?term=${tag}&columns=id,req_golden_five`);
    expect(column.statusCode).toBe(400);
    expect(Object.keys(column.json().errors)).toEqual(['columns.req_golden_five']);
  });
});
