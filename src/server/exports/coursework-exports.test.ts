import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CourseEntry, CourseworkAnswer } from '../../shared/coursework/coursework-answer';
import type { ApplicationListResponse } from '../../shared/staff/application-list-api';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { accounts, auditEvents, courseworkUpdates } from '../db/schema';
import { CSV_BOM } from '../http/csv-writer';
import { STEP_UP_REQUIRED_CODE } from '../staff/staff-sessions';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { insertApplications, parseCsv } from '../test/export-helpers';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { COURSE_EXPORT_HEADER } from './course-rows';

const CSV = '/staff/api/exports/applications.csv';
const COURSES = '/staff/api/exports/courses.csv';

const course = (
  subject: string,
  number: string,
  units: string,
  grade: string,
  title = `${subject} ${number}`,
): CourseEntry => ({ subject, number, title, units, grade });
const BLANK = course('', '', '', '', '');

/**
 * A retaken course (MATH 1A: the earlier D is the repeat the latest attempt replaces), a blank
 * row, a title a spreadsheet would run, and a term in progress.
 * GPA (3 x 4.0 + 4 x 3.0 + 3 x 3.0) / 10 = 3.30; 10 transferable units, 4 in progress.
 */
const withRepeat: CourseworkAnswer = {
  system: 'semester',
  terms: [
    {
      season: 'fall',
      year: 2022,
      status: 'completed',
      courses: [course('MATH', '1A', '4', 'D'), course('ENGL', '1', '3', 'A'), BLANK],
    },
    {
      season: 'spring',
      year: 2023,
      status: 'completed',
      courses: [
        course('MATH', '1A', '4', 'B'),
        course('HIST', '10', '3', 'B', '=HYPERLINK("http://evil.example")'),
      ],
    },
    {
      season: 'fall',
      year: 2026,
      status: 'in_progress',
      courses: [course('BIO', '2', '4', '')],
    },
  ],
};

/** One course: GPA 4.00 on 5 units. */
const oneCourse: CourseworkAnswer = {
  system: 'semester',
  terms: [
    { season: 'fall', year: 2023, status: 'completed', courses: [course('CHEM', '1', '5', 'A')] },
  ],
};

describe.each(databaseKinds)('the coursework in the list’s exports on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  /** In every address of this run's applications: a search for it selects them alone. */
  const token = `cw${randomBytes(4).toString('hex')}`;
  let repeater = '';
  let single = '';
  let unsubmitted = '';

  const get = (url: string, cookie = reader.cookie) =>
    app.inject({ method: 'GET', url, headers: { cookie } });

  async function submitted(email: string, answers: Record<string, string>): Promise<string> {
    const cookie = await signedInApplicant(app, email);
    const saved = await callAs(app, cookie, 'PUT', '/api/answer', {
      ...validApplicationAnswers(),
      ...answers,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const submit = await callAs(app, cookie, 'POST', '/api/submit');
    expect(submit.statusCode, submit.body).toBe(200);
    const [account] = await testDatabaseOf(app)
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    return account?.id as string;
  }

  async function csvOf(url: string) {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body.startsWith(CSV_BOM)).toBe(true);
    const [header, ...rows] = parseCsv(response.body.slice(CSV_BOM.length));
    return { response, header: header as string[], rows };
  }

  const audits = (action: string) =>
    testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, reader.staffId), eq(auditEvents.action, action)));

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
    repeater = await submitted(`${token}a@example.edu`, {
      college_ceeb: '5074',
      college_coursework: JSON.stringify(withRepeat),
    });
    single = await submitted(`${token}b@example.edu`, {
      college_name: 'Miami Dade College',
      college_coursework: JSON.stringify(oneCourse),
    });
    [unsubmitted] = (await insertApplications(app, `${token}c`, [
      {
        answers: { college_name: 'Nowhere College', college_coursework: JSON.stringify(oneCourse) },
      },
    ])) as [string];
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists the submitted totals and filters on them, a GPA at the bound included', async () => {
    const listed = async (filters: string) => {
      const response = await get(
        `/staff/api/applications?q=${token}&sort=transfer_gpa&direction=desc${filters}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ApplicationListResponse>().applications;
    };
    expect((await listed('')).map((row) => [row.id, row.transfer_gpa, row.transfer_units])).toEqual(
      [
        [single, '4.00', '5.00'],
        [repeater, '3.30', '10.00'],
        [unsubmitted, null, null],
      ],
    );
    expect((await listed('&gpa_min=3.3')).map((row) => row.id)).toEqual([single, repeater]);
    expect((await listed('&gpa_min=3.31')).map((row) => row.id)).toEqual([single]);
    expect((await listed('&gpa_min=3&units_min=10')).map((row) => row.id)).toEqual([repeater]);
    expect((await listed('&units_min=0')).map((row) => row.id)).toEqual([single, repeater]);
  });

  it('writes the totals in the CSV of applications, empty without them', async () => {
    const { header, rows } = await csvOf(
      `${CSV}?q=${token}&sort=email&columns=id,transfer_gpa,transfer_units,in_progress_units`,
    );
    expect(header).toEqual(['id', 'transfer_gpa', 'transfer_units', 'in_progress_units']);
    expect(rows).toEqual([
      [repeater, '3.30', '10.00', '4.00'],
      [single, '4.00', '5.00', '0.00'],
      [unsubmitted, '', '', ''],
    ]);
    const columns = (await get('/staff/api/exports/columns')).json().columns as Array<{
      id: string;
      group: string;
    }>;
    expect(columns.filter((column) => column.group === 'coursework').map((one) => one.id)).toEqual([
      'transfer_gpa',
      'transfer_units',
      'in_progress_units',
    ]);
  });

  it('exports one record per course, the replaced attempt marked, blank rows left out', async () => {
    const before = (await audits('applications.export_courses_csv')).length;
    const { response, header, rows } = await csvOf(`${COURSES}?q=${token}&sort=email`);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="courses-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(header).toEqual([...COURSE_EXPORT_HEADER]);
    expect(header).toEqual([
      'application_id',
      'college_ceeb',
      'college_name',
      'term',
      'subject',
      'number',
      'title',
      'units',
      'grade',
      'repeat',
    ]);
    const broward = [repeater, '5074', 'Broward College'];
    expect(rows).toEqual([
      [...broward, 'Fall 2022', 'MATH', '1A', 'MATH 1A', '4', 'D', 'yes'],
      [...broward, 'Fall 2022', 'ENGL', '1', 'ENGL 1', '3', 'A', 'no'],
      [...broward, 'Spring 2023', 'MATH', '1A', 'MATH 1A', '4', 'B', 'no'],
      // A spreadsheet shows the formula as text: the CSV writer's apostrophe.
      [
        ...broward,
        'Spring 2023',
        'HIST',
        '10',
        `'=HYPERLINK("http://evil.example")`,
        '3',
        'B',
        'no',
      ],
      [...broward, 'Fall 2026', 'BIO', '2', 'BIO 2', '4', '', 'no'],
      [single, '', 'Miami Dade College', 'Fall 2023', 'CHEM', '1', 'CHEM 1', '5', 'A', 'no'],
      [unsubmitted, '', 'Nowhere College', 'Fall 2023', 'CHEM', '1', 'CHEM 1', '5', 'A', 'no'],
    ]);
    const recorded = await audits('applications.export_courses_csv');
    expect(recorded).toHaveLength(before + 1);
    expect(recorded.at(-1)?.detail).toMatchObject({ q: token, sort: 'email', rows: 3 });
  });

  it('selects what the list selects, filters included', async () => {
    const { rows } = await csvOf(`${COURSES}?q=${token}&gpa_min=3.5`);
    expect(rows.map((row) => row[0])).toEqual([single]);
    const none = await csvOf(`${COURSES}?q=${token}&gpa_min=5`);
    expect(none.rows).toEqual([]);
  });

  it('reads each grid as it stands now: its latest update after submit', async () => {
    const later: CourseworkAnswer = {
      ...oneCourse,
      terms: [
        ...oneCourse.terms,
        {
          season: 'spring',
          year: 2024,
          status: 'completed',
          courses: [course('PHYS', '1', '4', 'B')],
        },
      ],
    };
    const db = testDatabaseOf(app);
    await db.insert(courseworkUpdates).values([
      {
        accountId: single,
        answerKey: 'college_coursework',
        answer: JSON.stringify({ ...oneCourse, terms: [] }),
        createdAt: new Date('2027-01-10T00:00:00Z'),
      },
      {
        accountId: single,
        answerKey: 'college_coursework',
        answer: JSON.stringify(later),
        createdAt: new Date('2027-01-20T00:00:00Z'),
      },
    ]);
    const { rows } = await csvOf(`${COURSES}?q=${token}&sort=email`);
    expect(rows.filter((row) => row[0] === single).map((row) => row.slice(3, 6))).toEqual([
      ['Fall 2023', 'CHEM', '1'],
      ['Spring 2024', 'PHYS', '1'],
    ]);
  });

  it('refuses a bad filter, a page or a column with 400, exporting and recording nothing', async () => {
    const before = (await audits('applications.export_courses_csv')).length;
    for (const [query, message] of [
      ['gpa_min=abc', /gpa_min is a number from 0 to 5 with at most 2 decimals/],
      ['gpa_min=4.001', /gpa_min is a number/],
      ['units_min=-3', /units_min is a number/],
      ['page=2', /page, page_size and email are not part of it/],
      ['columns=id', /not part of the request/],
    ] as const) {
      const response = await get(`${COURSES}?q=${token}&${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.body, query).toMatch(message);
    }
    expect(await audits('applications.export_courses_csv')).toHaveLength(before);
  });

  it('needs a fresh second factor, as the other exports do; no one else may export', async () => {
    const stale = await signedInStaff(app, { role: 'reader', fresh2fa: false });
    const refused = await get(`${COURSES}?q=${token}`, stale.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(STEP_UP_REQUIRED_CODE);
    expect((await get(COURSES, '')).statusCode).toBe(401);
    const applicant = await signedInApplicant(app, `${token}d@example.edu`);
    expect((await get(COURSES, applicant)).statusCode).toBe(401);
  });
});
