import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_SUMMARY_TITLE } from '../../shared/api/application-messages';
import {
  COURSEWORK_ANSWER_MESSAGES,
  type CourseEntry,
  type CourseworkAnswer,
} from '../../shared/coursework/coursework-answer';
import {
  TOO_MANY_COURSES_MESSAGE,
  UNITS_MESSAGE,
} from '../../shared/coursework/coursework-validation';
import { ANSWER_MESSAGES } from '../../shared/form/answer-keys';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { rowsOf } from '../db/database';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const course = (subject: string, number: string, units: string, grade: string): CourseEntry => ({
  subject,
  number,
  title: `${subject} ${number}`,
  units,
  grade,
});

const twoTerms: CourseworkAnswer = {
  system: 'semester',
  terms: [
    {
      season: 'fall',
      year: 2023,
      status: 'completed',
      courses: [course('MATH', '1A', '4', 'A'), course('ENGL', '1', '3', 'B+')],
    },
    {
      season: 'spring',
      year: 2024,
      status: 'completed',
      courses: [course('CHEM', '1', '5', 'C'), course('HIST', '10', '3', 'W')],
    },
  ],
};

const asText = (answer: CourseworkAnswer) => JSON.stringify(answer);

describe.each(databaseKinds)('coursework answers on %s', (kind) => {
  let app: FastifyInstance;
  let counter = 0;
  const applicant = () => signedInApplicant(app, `coursework${++counter}.${kind}@example.edu`);
  const saveAs = (cookie: string, answers: Record<string, unknown>) =>
    callAs(app, cookie, 'PUT', '/api/answer', answers);
  const storedAnswers = async (cookie: string) =>
    (await callAs(app, cookie, 'GET', '/api/profile')).json().answer as Record<string, unknown>;

  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('saves a college grid like any answer and reads it back as sent', async () => {
    const cookie = await applicant();
    const saved = await saveAs(cookie, {
      college_name: 'Broward College',
      college_coursework: asText(twoTerms),
    });
    expect(saved.statusCode).toBe(200);
    expect((await storedAnswers(cookie)).college_coursework).toBe(asText(twoTerms));
  });

  it('refuses a grid with a bad entry, naming the row, and stores nothing of the patch', async () => {
    const cookie = await applicant();
    const withCourse = (entry: CourseEntry, year = 2023) =>
      asText({
        system: 'semester',
        terms: [{ season: 'fall', year, status: 'completed', courses: [entry] }],
      });
    const cases: Array<[string, string]> = [
      [
        withCourse(course('MATH', '1A', '4', 'Q')),
        'Fall 2023, course 1 (MATH 1A): Enter a grade from the scale, such as A, B+ or P.',
      ],
      [
        withCourse(course('MATH', '1A', '31', 'A')),
        `Fall 2023, course 1 (MATH 1A): ${UNITS_MESSAGE}`,
      ],
      [
        withCourse(course('MATH', '1A', '-1', 'A')),
        `Fall 2023, course 1 (MATH 1A): ${UNITS_MESSAGE}`,
      ],
      [
        withCourse(course('MATH', '1A', '4', 'A'), 2030),
        'Fall 2030, course 1 (MATH 1A): Fall 2030 has not started yet, so its courses cannot have a grade.',
      ],
    ];
    for (const [value, message] of cases) {
      const refused = await saveAs(cookie, { first_name: 'Kept?', college_coursework: value });
      expect(refused.statusCode, message).toBe(400);
      expect(refused.json().errors.college_coursework).toEqual([message]);
    }
    const stored = await storedAnswers(cookie);
    expect(stored.first_name).toBeUndefined();
    expect(stored.college_coursework).toBeUndefined();
  });

  it('refuses 201 courses, naming the 201st', async () => {
    const cookie = await applicant();
    const courses = Array.from({ length: 201 }, (_, index) =>
      course('ART', String(index + 1), '1', 'P'),
    );
    const refused = await saveAs(cookie, {
      college_coursework: asText({
        system: 'semester',
        terms: [{ season: 'fall', year: 2023, status: 'completed', courses }],
      }),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.college_coursework).toEqual([
      `Fall 2023, course 201 (ART 201): ${TOO_MANY_COURSES_MESSAGE}`,
    ]);
  });

  it('refuses what is not a grid, and a grid for a college the application has no place for', async () => {
    const cookie = await applicant();
    for (const value of [
      '{',
      '[]',
      JSON.stringify({ system: 'trimester', terms: [] }),
      JSON.stringify({ system: 'semester', terms: [], extra: 1 }),
      JSON.stringify({
        system: 'semester',
        terms: [{ season: 'fall', year: 2023, status: 'completed', courses: [{ subject: 1 }] }],
      }),
      JSON.stringify({
        system: 'semester',
        terms: [
          {
            season: 'fall',
            year: 2023,
            status: 'completed',
            courses: [course('A\u0000', '1', '1', 'A')],
          },
        ],
      }),
    ]) {
      const refused = await saveAs(cookie, { college_coursework: value });
      expect(refused.statusCode, value).toBe(400);
      expect(refused.json().errors.college_coursework[0]).toMatch(
        new RegExp(`^${COURSEWORK_ANSWER_MESSAGES.notCoursework.replace(/[.]/g, '\\.')}`),
      );
    }
    const nowhere = await saveAs(cookie, { college_9_coursework: asText(twoTerms) });
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().errors.college_9_coursework).toEqual([ANSWER_MESSAGES.unknownKey]);
    expect((await storedAnswers(cookie)).college_coursework).toBeUndefined();
  });

  it('asks at submit for what a finished course needs, and clears a grid whose college is gone', async () => {
    const cookie = await applicant();
    const unfinished: CourseworkAnswer = {
      system: 'semester',
      terms: [
        {
          season: 'fall',
          year: 2023,
          status: 'completed',
          courses: [{ subject: 'MATH', number: '', title: '', units: '4', grade: '' }],
        },
      ],
    };
    await saveAs(cookie, { ...validApplicationAnswers(), college_coursework: asText(unfinished) });
    const submit = await callAs(app, cookie, 'POST', '/api/submit');
    expect(submit.statusCode).toBe(422);
    expect(submit.json()).toMatchObject({ message: ERROR_SUMMARY_TITLE });
    expect(submit.json().errors.college_coursework).toEqual([
      `Fall 2023, course 1 (MATH): ${COURSEWORK_ANSWER_MESSAGES.number}`,
      `Fall 2023, course 1 (MATH): ${COURSEWORK_ANSWER_MESSAGES.grade}`,
    ]);
    // The second college is not named: its grid is hidden, so submit clears it.
    await saveAs(cookie, {
      college_coursework: asText(twoTerms),
      college_2_coursework: asText(twoTerms),
    });
    expect((await callAs(app, cookie, 'POST', '/api/submit')).statusCode).toBe(200);
    expect((await storedAnswers(cookie)).college_2_coursework).toBe('');
  });

  it('stores the transfer GPA and units of the submitted coursework', async () => {
    const cookie = await applicant();
    await saveAs(cookie, { ...validApplicationAnswers(), college_coursework: asText(twoTerms) });
    expect((await callAs(app, cookie, 'POST', '/api/submit')).statusCode).toBe(200);
    const [totals] = rowsOf<Record<string, string | null>>(
      await testDatabaseOf(app).execute(sql`
        select t.transfer_gpa::text, t.transfer_units::text, t.in_progress_units::text
        from coursework_totals t join accounts a on a.id = t.account_id
        where a.email = ${`coursework${counter}.${kind}@example.edu`}`),
    );
    // (4 x 4.0 + 3 x 3.3 + 5 x 2.0) / 12 = 35.9 / 12 = 2.9916... (the W counts nothing)
    expect(totals).toEqual({
      transfer_gpa: '2.99',
      transfer_units: '12.00',
      in_progress_units: '0.00',
    });
  });
});
