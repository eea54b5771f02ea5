import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, fieldOf, signedInAccount } from './helpers/form';

const SHOTS = '/tmp/shots-required';
const MARK = '(required)';

/** The visible mark after a question's label or legend. */
function markOf(field: Locator): Locator {
  return field.getByText(MARK, { exact: true });
}

/**
 * Every question of the page is marked one way: a control that is required to assistive
 * technology (aria-required, or `required` where ARIA has no attribute) sits in a question that
 * shows the mark, and every mark belongs to such a control. Returns the answer keys that are marked.
 */
async function expectMarksAgree(page: Page): Promise<string[]> {
  const { marked, mismatches } = await page.evaluate((mark) => {
    // A question's wrapper carries its answer key as id; its first control is `{key}-input`.
    const questions = [...document.querySelectorAll<HTMLElement>('main [id]')].filter((element) =>
      element.querySelector(`[id="${CSS.escape(`${element.id}-input`)}"]`),
    );
    const markedKeys: string[] = [];
    const wrong: string[] = [];
    for (const question of questions) {
      const isMarked = [...question.querySelectorAll('label span, legend span, button span')].some(
        (span) => span.textContent?.trim() === mark,
      );
      const isRequired = question.querySelector('[aria-required="true"], [required]') !== null;
      if (isMarked) markedKeys.push(question.id);
      if (isMarked !== isRequired) wrong.push(question.id);
    }
    return { marked: markedKeys, mismatches: wrong };
  }, MARK);
  expect(mismatches, 'questions whose mark and required state disagree').toEqual([]);
  expect(marked.length).toBeGreaterThan(0);
  return marked;
}

test.beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

test('required questions are marked from the model, the same way to the eye and to screen readers', async ({
  page,
}) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();

  const firstName = fieldOf(page, 'first_name');
  await expect(markOf(firstName)).toBeVisible();
  // Screen readers hear "required" from the control, once; the label's name stays the label.
  const firstNameInput = firstName.getByRole('textbox', { name: 'First name', exact: true });
  await expect(firstNameInput).toHaveAttribute('aria-required', 'true');
  await expect(fieldOf(page, 'last_name').getByRole('textbox')).toHaveAttribute(
    'aria-required',
    'true',
  );
  await expect(fieldOf(page, 'gender').getByRole('combobox')).toHaveAttribute(
    'aria-required',
    'true',
  );
  await expect(fieldOf(page, 'citizenship_type').getByRole('combobox')).toHaveAttribute(
    'aria-required',
    'true',
  );

  // The questions that were marked by chance, or not at all, are all simply unmarked now.
  for (const key of ['middle_name', 'suffix', 'preferred_name', 'prev_lname', 'first_gen']) {
    const field = fieldOf(page, key);
    await expect(field, key).toBeVisible();
    await expect(markOf(field), key).toHaveCount(0);
    await expect(field.locator('[aria-required="true"], [required]'), key).toHaveCount(0);
    await expect(field, key).not.toContainText(/optional/i);
  }
  await expect(page.getByText(/\boptional\b/i)).toHaveCount(0);

  const aboutMarked = await expectMarksAgree(page);
  expect(aboutMarked).toEqual(expect.arrayContaining(['first_name', 'last_name', 'gender']));
  await expectNoAxeViolations(page, '/about with required marks');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('region', { name: 'Your name' }).screenshot({
      path: `${SHOTS}/about-name-${width}.png`,
    });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.goto('/education');
  await expect(page.getByRole('heading', { level: 1, name: 'Your Academics' })).toBeVisible();
  const credits = fieldOf(page, 'transfer_student_credits');
  await expect(markOf(credits)).toBeVisible();
  for (const radio of await credits.getByRole('radio').all())
    await expect(radio).toHaveAttribute('required', '');
  await expect(page.getByText(/\boptional\b/i)).toHaveCount(0);
  await expectMarksAgree(page);

  await page.goto('/final-steps');
  const legal = fieldOf(page, 'legal_agree');
  await expect(legal.getByRole('checkbox')).toHaveAttribute('aria-required', 'true');
  await expect(markOf(legal)).toBeVisible();
  await expect(page.getByText(/\boptional\b/i)).toHaveCount(0);
  await expectMarksAgree(page);
  await expectNoAxeViolations(page, '/final-steps with required marks');
});

test('a question becomes required, and marked, when the answers it depends on say so', async ({
  page,
  request,
}) => {
  await signedInAccount(page, request, 'required-marks');
  const added = await page.request.put('/api/add-another', {
    data: { button_id: 'colleges', num_components: 2 },
  });
  expect(added.status(), await added.text()).toBe(200);
  await page.goto('/education');

  // A GPA scale is asked for once a GPA is given.
  const scale = fieldOf(page, 'gpa_scale');
  await expect(markOf(scale)).toHaveCount(0);
  await expect(scale.getByRole('combobox')).not.toHaveAttribute('aria-required', 'true');
  await fieldOf(page, 'hs_gpa').getByRole('textbox').fill('3.4');
  await expect(markOf(scale)).toBeVisible();
  await expect(scale.getByRole('combobox')).toHaveAttribute('aria-required', 'true');
  await fieldOf(page, 'hs_gpa').getByRole('textbox').fill('');
  await expect(markOf(scale)).toHaveCount(0);

  // The first college is required, the second once it is named (rules scoped to instances).
  await expect(markOf(fieldOf(page, 'college_name'))).toBeVisible();
  await expect(fieldOf(page, 'college_name').getByRole('textbox')).toHaveAttribute(
    'aria-required',
    'true',
  );
  const secondName = fieldOf(page, 'college_2_name');
  const secondMonth = fieldOf(page, 'college_2_attended_from_month');
  await expect(markOf(secondName)).toHaveCount(0);
  await expect(markOf(secondMonth)).toHaveCount(0);
  await secondName.getByLabel('College name').focus();
  const secondSearch = secondName.getByRole('combobox', { name: 'College name' });
  await expect(secondSearch).toBeFocused();
  await expect(secondSearch).not.toHaveAttribute('aria-required', 'true');
  // The search widget carries the mark of the field it replaced.
  await expect(
    fieldOf(page, 'college_name').getByRole('combobox', { name: 'College name' }),
  ).toHaveAttribute('aria-required', 'true');
  await secondSearch.fill('Valencia College West');
  await secondSearch.press('Tab');
  await expect(markOf(secondMonth)).toBeVisible();
  await expect(secondMonth.getByRole('combobox')).toHaveAttribute('aria-required', 'true');

  // A file question: the statement upload is required for Film when nothing is written.
  await fieldOf(page, 'applied_major').getByRole('combobox').selectOption({ label: 'Film (B.A.)' });
  await expect(markOf(fieldOf(page, 'personal_statement_essay'))).toBeVisible();
  await page.getByRole('tab', { name: 'Upload from your device' }).click();
  const upload = fieldOf(page, 'personal_statement_doc');
  await expect(markOf(upload)).toBeVisible();
  await expect(upload.getByLabel('Choose a file for Personal statement document')).toHaveAttribute(
    'required',
    '',
  );
  await expectMarksAgree(page);
  await expectNoAxeViolations(page, '/education with conditional marks');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('region', { name: 'Colleges' }).screenshot({
      path: `${SHOTS}/colleges-${width}.png`,
    });
  }
});
