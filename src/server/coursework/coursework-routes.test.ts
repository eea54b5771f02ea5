import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CourseEntry, CourseworkAnswer } from '../../shared/coursework/coursework-answer';
import { COURSEWORK_UPDATE_MESSAGES } from '../../shared/coursework/coursework-update';
import type {
  CourseworkOverview,
  StaffCoursework,
} from '../../shared/coursework/coursework-update-api';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { accounts, auditEvents, courseworkTotals, courseworkUpdates } from '../db/schema';
import { INVALID_REQUEST_MESSAGE } from '../http/errors-plugin';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const course = (subject: string, number: string, units: string, grade = ''): CourseEntry => ({
  subject,
  number,
  title: `${subject} ${number}`,
  units,
  grade,
});

/** Submitted on 2026-11-28 or later: Fall 2026 is in progress. */
const submittedGrid: CourseworkAnswer = {
  system: 'semester',
  terms: [
    {
      season: 'fall',
      year: 2025,
      status: 'completed',
      courses: [course('MATH', '1A', '4', 'A'), course('ENGL', '1', '3', 'C')],
    },
    {
      season: 'fall',
      year: 2026,
      status: 'in_progress',
      courses: [course('MATH', '1B', '4'), course('CHEM', '2', '5')],
    },
  ],
};
const asText = (answer: CourseworkAnswer) => JSON.stringify(answer);
/** A fall that has not started whenever the test runs. */
const FUTURE_YEAR = new Date().getFullYear() + 2;

function edited(change: (grid: CourseworkAnswer) => void, from = submittedGrid): CourseworkAnswer {
  const grid = structuredClone(from);
  change(grid);
  return grid;
}
const row = (grid: CourseworkAnswer, term: number, index: number) =>
  grid.terms[term]?.courses[index] as CourseEntry;

describe.each(databaseKinds)('coursework updates after submit on %s', (kind) => {
  let app: FastifyInstance;
  let staff: SignedInStaff;
  let counter = 0;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    staff = await signedInStaff(app, { role: 'reader' });
  });
  afterAll(async () => {
    await app.close();
  });

  const update = (cookie: string, payload: unknown) =>
    callAs(app, cookie, 'POST', '/api/coursework-updates', payload);
  const overview = async (cookie: string) => {
    const response = await callAs(app, cookie, 'GET', '/api/coursework');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.json<CourseworkOverview>();
  };

  /** A signed-in applicant with the grid saved, submitted unless told not to. */
  async function applicant(submit = true): Promise<{ cookie: string; id: string }> {
    const email = `cw-update${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const saved = await callAs(app, cookie, 'PUT', '/api/answer', {
      ...validApplicationAnswers(),
      college_coursework: asText(submittedGrid),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    if (submit) {
      const submitted = await callAs(app, cookie, 'POST', '/api/submit');
      expect(submitted.statusCode, submitted.body).toBe(200);
    }
    const [account] = await testDatabaseOf(app)
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    return { cookie, id: account?.id as string };
  }

  const storedUpdates = (id: string) =>
    testDatabaseOf(app)
      .select({ key: courseworkUpdates.answerKey, answer: courseworkUpdates.answer })
      .from(courseworkUpdates)
      .where(eq(courseworkUpdates.accountId, id));
  const storedTotals = async (id: string) => {
    const [row] = await testDatabaseOf(app)
      .select({
        gpa: courseworkTotals.transferGpa,
        units: courseworkTotals.transferUnits,
        inProgress: courseworkTotals.inProgressUnits,
      })
      .from(courseworkTotals)
      .where(eq(courseworkTotals.accountId, id));
    return row;
  };
  const storedAnswer = async (cookie: string) =>
    (await callAs(app, cookie, 'GET', '/api/profile')).json().answer.college_coursework;

  it('adds grades to an in-progress term, then completes it, recomputing the totals', async () => {
    const { cookie, id } = await applicant();
    // (4 x 4.0 + 3 x 2.0) / 7 = 3.142...: Fall 2026 is in progress.
    expect(await storedTotals(id)).toEqual({ gpa: '3.14', units: '7.00', inProgress: '9.00' });
    const before = await overview(cookie);
    expect(before).toMatchObject({
      submitted: true,
      grids: [
        {
          key: 'college_coursework',
          college: 'Broward College',
          current: asText(submittedGrid),
          submitted: asText(submittedGrid),
        },
      ],
      totals: { gpa: '3.14', transferableUnits: '7.00', inProgressUnits: '9.00' },
      updates: [],
    });

    const graded = edited((grid) => {
      row(grid, 1, 0).grade = 'A';
    });
    const first = await update(cookie, { key: 'college_coursework', value: asText(graded) });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const afterFirst = first.json<CourseworkOverview>();
    expect(afterFirst.grids[0]?.current).toBe(asText(graded));
    expect(afterFirst.updates).toEqual([
      {
        key: 'college_coursework',
        created_at: expect.any(String),
        lines: ['Fall 2026: grades added for MATH 1B (A)'],
      },
    ]);
    // A grade in a term still in progress changes no GPA.
    expect(await storedTotals(id)).toEqual({ gpa: '3.14', units: '7.00', inProgress: '9.00' });

    const completed = edited((grid) => {
      row(grid, 1, 1).grade = 'B';
      (grid.terms[1] as CourseworkAnswer['terms'][number]).status = 'completed';
    }, graded);
    const second = await update(cookie, { key: 'college_coursework', value: asText(completed) });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json<CourseworkOverview>().updates.map((entry) => entry.lines)).toEqual([
      ['Fall 2026: grades added for MATH 1B (A)'],
      ['Fall 2026: grades added for CHEM 2 (B)', 'Fall 2026 is now completed'],
    ]);
    // (16 + 6 + 4 x 4.0 + 5 x 3.0) / 16 = 53 / 16 = 3.3125
    expect(await storedTotals(id)).toEqual({ gpa: '3.31', units: '16.00', inProgress: '0.00' });
    expect((await overview(cookie)).totals).toMatchObject({ gpa: '3.31' });
    expect(await storedAnswer(cookie)).toBe(asText(submittedGrid));
  });

  it('adds a term, audited as the applicant, and the receipt still matches the submission', async () => {
    const { cookie, id } = await applicant();
    const added = edited((grid) => {
      grid.terms.push({
        season: 'spring',
        year: 2027,
        status: 'planned',
        courses: [course('PHYS', '4A', '4'), course('HIST', '17', '3')],
      });
    });
    const response = await update(cookie, { key: 'college_coursework', value: asText(added) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<CourseworkOverview>().updates[0]?.lines).toEqual([
      'Spring 2027 added with 2 courses (planned)',
    ]);
    expect(await storedTotals(id)).toMatchObject({ inProgress: '16.00' });

    const entries = await testDatabaseOf(app)
      .select({
        actorType: auditEvents.actorType,
        actorId: auditEvents.actorId,
        detail: auditEvents.detail,
      })
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, id), eq(auditEvents.action, 'coursework.updated')));
    expect(entries).toEqual([
      {
        actorType: 'applicant',
        actorId: id,
        detail: { answer_key: 'college_coursework', changes: 1 },
      },
    ]);

    expect(await storedAnswer(cookie)).toBe(asText(submittedGrid));
    const verified = await app.inject({
      url: `/staff/api/applications/${id}/receipt/verify`,
      headers: { cookie: staff.cookie },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ matches: true });

    const detail = await app.inject({
      url: `/staff/api/applications/${id}`,
      headers: { cookie: staff.cookie },
    });
    expect(detail.statusCode, detail.body).toBe(200);
    const staffView = detail.json<StaffCoursework & { view: { answer: Record<string, string> } }>();
    expect(staffView.view.answer.college_coursework).toBe(asText(submittedGrid));
    expect(staffView.coursework_updates).toEqual([
      {
        answer_key: 'college_coursework',
        college: 'Broward College',
        answer: asText(added),
        created_at: expect.any(String),
        lines: ['Spring 2027 added with 2 courses (planned)'],
      },
    ]);
    expect(staffView.coursework_totals).toMatchObject({
      transfer_gpa: '3.14',
      transfer_units: '7.00',
      in_progress_units: '16.00',
    });
  });

  it('refuses what changes the submission, naming the row, and stores nothing', async () => {
    const { cookie, id } = await applicant();
    const cases: Array<[CourseworkAnswer, string]> = [
      [
        edited((grid) => {
          row(grid, 0, 0).grade = 'B';
        }),
        `Fall 2025, course 1 (MATH 1A): ${COURSEWORK_UPDATE_MESSAGES.gradeChanged('A')}`,
      ],
      [
        edited((grid) => {
          grid.terms[1]?.courses.splice(1, 1);
        }),
        `Fall 2026, course 2 (CHEM 2): ${COURSEWORK_UPDATE_MESSAGES.courseRemoved}`,
      ],
      [
        edited((grid) => {
          row(grid, 1, 0).units = '3';
        }),
        'Fall 2026, course 1 (MATH 1B): The units cannot change after you submit: it was 4.',
      ],
      [
        edited((grid) => {
          grid.terms.push({
            season: 'fall',
            year: FUTURE_YEAR,
            status: 'planned',
            courses: [course('MATH', '5', '4', 'A')],
          });
        }),
        `Fall ${FUTURE_YEAR}, course 1 (MATH 5): Fall ${FUTURE_YEAR} has not started yet, so its courses cannot have a grade.`,
      ],
      [
        edited((grid) => {
          grid.terms.splice(0, 1);
        }),
        `Fall 2025: ${COURSEWORK_UPDATE_MESSAGES.termRemoved('Fall 2025')}`,
      ],
    ];
    for (const [grid, message] of cases) {
      const refused = await update(cookie, { key: 'college_coursework', value: asText(grid) });
      expect(refused.statusCode, message).toBe(400);
      expect(refused.json(), message).toEqual({
        message: INVALID_REQUEST_MESSAGE,
        errors: { college_coursework: [message] },
      });
    }
    const same = await update(cookie, { key: 'college_coursework', value: asText(submittedGrid) });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(COURSEWORK_UPDATE_MESSAGES.nothingChanged);
    expect(await storedUpdates(id)).toEqual([]);
    expect(await storedTotals(id)).toEqual({ gpa: '3.14', units: '7.00', inProgress: '9.00' });
    expect(await storedAnswer(cookie)).toBe(asText(submittedGrid));
    const audited = await testDatabaseOf(app)
      .select({ seq: auditEvents.seq })
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, id), eq(auditEvents.action, 'coursework.updated')));
    expect(audited).toEqual([]);
  });

  it('refuses a body that is not an update, and a grid the application does not show', async () => {
    const { cookie, id } = await applicant();
    const graded = asText(
      edited((grid) => {
        row(grid, 1, 0).grade = 'A';
      }),
    );
    const bodies: Array<[unknown, string]> = [
      [{ key: 'college_coursework', value: graded, extra: 1 }, ''],
      [{ key: 'college_coursework', value: 7 }, 'value'],
      [{ key: 'college_coursework' }, 'value'],
      [{ key: 'college_coursework', value: graded.replace('MATH', 'MA\u0000TH') }, 'value'],
      [{ key: 'college_coursework', value: 'x'.repeat(64_001) }, 'value'],
      [{ key: 'college_coursework', value: '{"system":"semester"}' }, 'value'],
      [{ key: 'college_coursework', value: '' }, 'value'],
      // The second college is not named: its grid is not shown, so it has nothing to update.
      [{ key: 'college_2_coursework', value: graded }, 'key'],
      [{ key: 'first_name', value: graded }, 'key'],
    ];
    for (const [body, field] of bodies) {
      const refused = await update(cookie, body);
      const what = JSON.stringify(body).slice(0, 120);
      expect(refused.statusCode, what).toBe(400);
      expect(refused.json().message, what).toBe(INVALID_REQUEST_MESSAGE);
      if (field !== '') expect(Object.keys(refused.json().errors), what).toEqual([field]);
    }
    expect(await storedUpdates(id)).toEqual([]);
  });

  it('refuses an update before submit with 409, and reads no coursework then', async () => {
    const { cookie, id } = await applicant(false);
    const refused = await update(cookie, {
      key: 'college_coursework',
      value: asText(
        edited((grid) => {
          row(grid, 1, 0).grade = 'A';
        }),
      ),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: COURSEWORK_UPDATE_MESSAGES.notSubmitted });
    expect(await overview(cookie)).toEqual({
      submitted: false,
      grids: [],
      totals: null,
      updates: [],
    });
    expect(await storedUpdates(id)).toEqual([]);
  });

  it('takes two updates at once one after the other: the second must build on the first', async () => {
    const { cookie, id } = await applicant();
    const math = edited((grid) => {
      row(grid, 1, 0).grade = 'A';
    });
    const chemistry = edited((grid) => {
      row(grid, 1, 1).grade = 'B';
    });
    const responses = await Promise.all([
      update(cookie, { key: 'college_coursework', value: asText(math) }),
      update(cookie, { key: 'college_coursework', value: asText(chemistry) }),
    ]);
    // Whichever comes second finds the other's grade gone from what it sends, and is refused.
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 400]);
    const refused = responses.find((response) => response.statusCode === 400);
    expect(refused?.json().errors.college_coursework[0]).toMatch(
      /^Fall 2026, course \d \((MATH 1B|CHEM 2)\): The grade cannot change after you submit: it was [AB]\.$/,
    );
    expect(await storedUpdates(id)).toHaveLength(1);
  });

  it('updates only the signed-in applicant’s own grid, and asks for a session', async () => {
    const mine = await applicant();
    const theirs = await applicant();
    const graded = asText(
      edited((grid) => {
        row(grid, 1, 0).grade = 'A';
      }),
    );
    // The body names a key, never an account: the update lands on the caller's application.
    expect(
      (await update(mine.cookie, { key: 'college_coursework', value: graded })).statusCode,
    ).toBe(200);
    expect(await storedUpdates(mine.id)).toHaveLength(1);
    expect(await storedUpdates(theirs.id)).toEqual([]);
    expect((await overview(theirs.cookie)).updates).toEqual([]);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/coursework-updates',
      payload: { key: 'college_coursework', value: graded },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await app.inject({ url: '/api/coursework' })).statusCode).toBe(401);
  });
});
