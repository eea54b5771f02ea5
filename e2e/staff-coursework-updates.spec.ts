import { expect, test } from '@playwright/test';
import type { CourseworkAnswer } from '../src/shared/coursework/coursework-answer';
import type { CourseworkOverview } from '../src/shared/coursework/coursework-update-api';
import type { ApplicationListResponse } from '../src/shared/staff/application-list-api';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { seedAnswers, signedInAccount } from './helpers/form';
import { expectAxeClean, signInAsNewMember } from './helpers/staff';

const course = (subject: string, number: string, units: string, grade = '') => ({
  subject,
  number,
  title: `${subject} ${number}`,
  units,
  grade,
});

/** A year whose fall term has begun by the time the test runs, with a term still in progress. */
const year = new Date().getFullYear() - 1;
const submitted: CourseworkAnswer = {
  system: 'semester',
  terms: [
    {
      season: 'fall',
      year,
      status: 'in_progress',
      courses: [course('MATH', '1B', '4'), course('CHEM', '2', '5')],
    },
  ],
};

test('staff see coursework the applicant added after submit, marked new', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const run = `cwupdate${Date.now().toString(36)}`;
  const applicant = await browser.newContext();
  const applicantPage = await applicant.newPage();
  await signedInAccount(applicantPage, applicantPage.request, run);
  await seedAnswers(applicantPage, {
    ...validApplicationAnswers(),
    first_name: 'Dana',
    last_name: 'Update',
    college_coursework: JSON.stringify(submitted),
  });
  const submit = await applicantPage.request.post('/api/submit');
  expect(submit.status(), await submit.text()).toBe(200);
  const graded = structuredClone(submitted);
  const [term] = graded.terms;
  if (!term) throw new Error('no term');
  term.status = 'completed';
  term.courses = [course('MATH', '1B', '4', 'A'), course('CHEM', '2', '5', 'B+')];
  const updated = await applicantPage.request.post('/api/coursework-updates', {
    data: { key: 'college_coursework', value: JSON.stringify(graded) },
  });
  expect(updated.status(), await updated.text()).toBe(200);
  expect(((await updated.json()) as CourseworkOverview).updates).toHaveLength(1);
  await applicant.close();

  await signInAsNewMember(page, 'reader', 'cw-reader');
  const list = await page.request.get(`/staff/api/applications?q=${run}`);
  expect(list.status(), await list.text()).toBe(200);
  const [id] = ((await list.json()) as ApplicationListResponse).applications.map((row) => row.id);
  await page.goto(`/staff/applications/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dana Update' })).toBeVisible();

  const updates = page.getByRole('region', { name: 'Coursework updated after submit' });
  await expect(updates).toContainText('New');
  await expect(updates).toContainText('Broward College');
  await expect(updates).toContainText(`Fall ${year}: grades added for MATH 1B (A), CHEM 2 (B+)`);
  await expect(updates).toContainText(`Fall ${year} is now completed`);
  await expect(updates.locator('time')).toHaveCount(1);
  await expectAxeClean(page, 'an application with coursework updated after submit');

  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toContainText('The applicant updated the coursework after submit');
});
