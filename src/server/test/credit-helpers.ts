import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { CourseworkAnswer } from '../../shared/coursework/coursework-answer';
import { equivalencyKey } from '../../shared/credit/equivalency';
import type { Answers } from '../../shared/form/model';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import type { CreditTableRow } from '../../shared/test/credit-fixtures';
import { accounts, equivalencies } from '../db/schema';
import { callAs, signedInApplicant } from './accounts-helpers';
import { testDatabaseOf } from './test-app';

/** A sending college's equivalency table, written as an import stores it. */
export async function seedEquivalencyTable(
  app: FastifyInstance,
  ceeb: string,
  rows: readonly CreditTableRow[],
): Promise<void> {
  await testDatabaseOf(app)
    .insert(equivalencies)
    .values(
      rows.map(([subject, number, local, units, kind, satisfies], index) => ({
        sendingCeeb: ceeb,
        courseKey: equivalencyKey(subject, number),
        subject,
        number,
        title: `${subject} ${number}`,
        units,
        localCourse: local,
        localUnits: units,
        kind,
        satisfies: [...satisfies],
        line: index + 2,
      })),
    );
}

export interface CreditApplicant {
  id: string;
  email: string;
  cookie: string;
}

/**
 * A signed-in applicant whose complete application names the college `ceeb` and holds
 * `coursework` there; submitted unless told not to.
 */
export async function creditApplicant(
  app: FastifyInstance,
  email: string,
  options: { ceeb: string; coursework: CourseworkAnswer; answers?: Answers; submit?: boolean },
): Promise<CreditApplicant> {
  const cookie = await signedInApplicant(app, email);
  const saved = await callAs(app, cookie, 'PUT', '/api/answer', {
    ...validApplicationAnswers(),
    ...options.answers,
    college_ceeb: options.ceeb,
    college_coursework: JSON.stringify(options.coursework),
  });
  expect(saved.statusCode, saved.body).toBe(200);
  if (options.submit !== false) {
    const submitted = await callAs(app, cookie, 'POST', '/api/submit');
    expect(submitted.statusCode, submitted.body).toBe(200);
  }
  const [account] = await testDatabaseOf(app)
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, email));
  return { id: account?.id as string, email, cookie };
}
