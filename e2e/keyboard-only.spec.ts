import { expect, type Locator, type Page, test } from '@playwright/test';
import { makePng, makeSampleDocx } from '../src/server/test/sample-files';
import { SUBMITTED_MESSAGE } from '../src/shared/api/application-messages';
import { confirmationCode, passwordInput, STRONG_PASSWORD, uniqueEmail } from './helpers/accounts';
import { expectNoAxeViolations, fieldOf, profileAnswers } from './helpers/form';
import {
  chooseFileWithKeyboard,
  expectFocusInside,
  expectFocusOn,
  shiftTabTo,
  tabTo,
} from './helpers/keyboard';

/**
 * The whole application with the keyboard alone, from sign-up to /completion: Tab and Shift+Tab
 * move, Enter, Space and the arrow keys act, and typing answers. The only steps outside the page
 * are reading the emailed code and picking a file in the system's file picker. The answers are
 * the fewest a Film application needs (Film asks for the personal statement, here uploaded),
 * plus the transcript, a second college and a date of birth typed in its three boxes.
 */

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const VIEWPORTS = [
  { name: 'phone', viewport: { width: 360, height: 740 } },
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
] as const;

function heading(page: Page, name: string): Locator {
  return page.getByRole('heading', { level: 1, name });
}

/** A page brought by a navigation: its heading has the focus, and axe finds nothing. */
async function arriveAt(page: Page, path: RegExp, title: string): Promise<void> {
  await expect(page).toHaveURL(path);
  await expectFocusOn(heading(page, title), `the "${title}" heading`);
}

/** Types into the focused control and checks that the answer took. */
async function typeInto(page: Page, control: Locator, text: string): Promise<void> {
  await tabTo(page, control);
  await page.keyboard.type(text);
  await expect(control).toHaveValue(text);
}

/** A native select: focused with Tab, its option chosen by typing the start of its label. */
async function typeToSelect(
  page: Page,
  select: Locator,
  typed: string,
  value: string,
): Promise<void> {
  await tabTo(page, select);
  await page.keyboard.type(typed);
  await expect(select).toHaveValue(value);
}

/** A yes/no radio group answered No: Tab lands on Yes, the arrow key moves to No and checks it. */
async function answerNo(page: Page, key: string): Promise<void> {
  const question = fieldOf(page, key);
  await tabTo(page, question.getByRole('radio', { name: 'Yes', exact: true }));
  await page.keyboard.press('ArrowRight');
  await expect(question.getByRole('radio', { name: 'No', exact: true })).toBeChecked();
  await expectFocusOn(question.getByRole('radio', { name: 'No', exact: true }), `No of ${key}`);
}

/**
 * A school search: type, wait for the suggestion, move through the list with the arrows (the
 * first suggestion starts highlighted, "Use: {typed}" follows it) and Enter to pick it.
 */
async function pickSchool(
  page: Page,
  key: string,
  label: string,
  typed: string,
  suggestion: RegExp,
): Promise<void> {
  // Plain input until first focused, then the search widget; its name may end in "(required)".
  const search = fieldOf(page, key).getByLabel(new RegExp(`^${label}`));
  await tabTo(page, search);
  await page.keyboard.type(typed);
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option').first()).toContainText(suggestion);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(listbox).toHaveCount(0);
  await expect(fieldOf(page, key)).toContainText(suggestion);
}

/** Uploads through the file question's chooser, which has the focus; ends on the file card. */
async function uploadFocused(
  page: Page,
  key: string,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  await chooseFileWithKeyboard(page, file);
  const view = fieldOf(page, key).getByRole('button', { name: `View PDF of ${file.name}` });
  await expect(view).toBeVisible({ timeout: 30_000 });
  // The finished upload puts the focus on the card's first button.
  await expectFocusOn(view, `the file card of ${file.name}`);
  await expect(fieldOf(page, key).getByRole('status')).toHaveText(
    `${file.name} is uploaded and converted to PDF.`,
  );
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`keyboard only, ${name} ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('an applicant signs up and completes the whole application with the keyboard alone', async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      const email = uniqueEmail(`keys-${name}`);

      // ---- Sign up.
      await page.goto('/signup');
      await expect(heading(page, 'Create Account')).toBeVisible();
      await expectNoAxeViolations(page, `/signup at ${name}`);
      await typeInto(page, page.getByLabel('Email address'), email);
      const password = passwordInput(page);
      await typeInto(page, password, STRONG_PASSWORD);
      const rows = page.getByRole('list', { name: 'Your password:' }).getByRole('listitem');
      await expect(rows).toHaveCount(6);
      await expect(rows.filter({ hasText: '(met)' })).toHaveCount(6);
      await tabTo(page, page.getByRole('button', { name: 'Create Account' }));
      await page.keyboard.press('Enter');

      // ---- Confirm.
      await expect(page).toHaveURL(/\/confirm$/);
      await expect(heading(page, 'Confirm Your Account')).toBeVisible();
      await expectFocusOn(
        heading(page, 'Confirm Your Account'),
        'the "Confirm Your Account" heading',
      );
      // The sign-up's toast comes with the confirm page, a moment after its heading: axe reads the
      // page once the toast is there and has faded in, not while it is still arriving.
      await expect(page.getByText('Check Your Email', { exact: true })).toBeVisible();
      await expectNoAxeViolations(page, `/confirm at ${name}`);
      await typeInto(
        page,
        page.getByLabel('Confirmation code'),
        await confirmationCode(request, email),
      );
      await tabTo(page, page.getByRole('button', { name: 'Confirm Account' }));
      await page.keyboard.press('Enter');

      // ---- Log in: the confirmed address is carried over.
      await expect(page).toHaveURL(/\/login$/);
      await expectFocusOn(heading(page, 'Sign In'), 'the "Sign In" heading');
      await expect(page.getByLabel('Email address')).toHaveValue(email);
      await expectNoAxeViolations(page, `/login at ${name}`);
      await typeInto(page, passwordInput(page), STRONG_PASSWORD);
      await tabTo(page, page.getByRole('button', { name: 'Sign In', exact: true }));
      await page.keyboard.press('Enter');

      // ---- About You.
      await arriveAt(page, /\/about$/, 'About You');
      await expectNoAxeViolations(page, `/about at ${name}`);
      await typeInto(page, fieldOf(page, 'first_name').getByRole('textbox'), 'Maria');
      await typeInto(page, fieldOf(page, 'last_name').getByRole('textbox'), 'Lopez');
      const birth = fieldOf(page, 'birth_date');
      await typeInto(page, birth.getByLabel('Day'), '15');
      await typeInto(page, birth.getByLabel('Month'), '5');
      await typeInto(page, birth.getByLabel('Year'), '2000');
      await typeToSelect(page, fieldOf(page, 'gender').getByRole('combobox'), 'Female', 'F');
      const phone = fieldOf(page, 'phone_home').getByRole('textbox');
      await tabTo(page, phone);
      await page.keyboard.type('9542628000');
      await expect(phone).toHaveValue('(954) 262-8000');
      const street = fieldOf(page, 'address_line_1').getByLabel('Street address');
      await tabTo(page, street);
      await page.keyboard.type('3301 College Avenue');
      await typeInto(page, fieldOf(page, 'city').getByRole('textbox'), 'Fort Lauderdale');
      await expect(fieldOf(page, 'address_line_1')).toContainText('3301 College Avenue');
      await typeToSelect(page, fieldOf(page, 'state').getByRole('combobox'), 'Florida', 'FL');
      await typeInto(page, fieldOf(page, 'zip').getByRole('textbox'), '33314');
      await typeToSelect(
        page,
        fieldOf(page, 'country').getByRole('combobox'),
        'United States of',
        'USA',
      );
      // The first real choice: U.S. citizen.
      const citizenship = fieldOf(page, 'citizenship_type').getByRole('combobox');
      await tabTo(page, citizenship);
      await page.keyboard.press('ArrowDown');
      await expect(citizenship).toHaveValue('1');
      await tabTo(page, page.getByRole('button', { name: 'Save and Continue' }), { max: 60 });
      await page.keyboard.press('Enter');

      // ---- Your Academics.
      await arriveAt(page, /\/education$/, 'Your Academics');
      await expectNoAxeViolations(page, `/education at ${name}`);
      await typeToSelect(page, fieldOf(page, 'applied_major').getByRole('combobox'), 'Film', '338');
      const credits = fieldOf(page, 'transfer_student_credits');
      await tabTo(page, credits.getByRole('radio').first());
      await page.keyboard.press('Space');
      await expect(credits.getByRole('radio').first()).toBeChecked();
      await typeInto(page, fieldOf(page, 'credits_transfer').getByRole('textbox'), '60');
      const term = fieldOf(page, 'entry_term').getByRole('combobox');
      await tabTo(page, term);
      await page.keyboard.press('ArrowDown');
      await expect(term).not.toHaveValue('');
      await typeToSelect(
        page,
        fieldOf(page, 'decision_type').getByRole('combobox'),
        'Regular',
        'REG',
      );

      // The first college, from the search; then its months.
      await pickSchool(page, 'college_name', 'College name', 'Broward', /Broward College/);
      await expect(fieldOf(page, 'college_city').getByRole('textbox')).toHaveValue(
        'Fort Lauderdale',
      );
      await typeToSelect(
        page,
        fieldOf(page, 'college_attended_from_month').getByRole('combobox'),
        'August',
        '8',
      );
      await typeToSelect(
        page,
        fieldOf(page, 'college_attended_to_month').getByRole('combobox'),
        'May',
        '5',
      );

      // Add Another: the new college's first question takes the focus.
      await tabTo(page, page.getByRole('button', { name: 'Add Another college' }));
      await page.keyboard.press('Enter');
      const secondName = fieldOf(page, 'college_2_name').getByLabel(/^College name/);
      await expectFocusOn(secondName, "the second college's name");
      await pickSchool(page, 'college_2_name', 'College name', 'Broward', /Broward College/);
      await typeToSelect(
        page,
        fieldOf(page, 'college_2_attended_from_month').getByRole('combobox'),
        'August',
        '8',
      );
      await typeToSelect(
        page,
        fieldOf(page, 'college_2_attended_to_month').getByRole('combobox'),
        'December',
        '12',
      );

      // The personal statement: written first, then switched to the upload tab, which clears it.
      const essay = page.getByRole('textbox', { name: 'Personal statement' });
      await typeInto(page, essay, 'Why I want to transfer.');
      const tabs = page.getByRole('tablist', { name: 'Personal statement' });
      const writeTab = tabs.getByRole('tab', { name: 'Write it here' });
      const uploadTab = tabs.getByRole('tab', { name: 'Upload from your device' });
      await shiftTabTo(page, writeTab);
      await page.keyboard.press('ArrowRight');
      await expectFocusOn(uploadTab, 'the upload tab');
      // Manual activation: the arrow only moves; Enter chooses.
      await expect(writeTab).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
      const clear = page.getByRole('dialog', { name: 'Switch and clear your answers?' });
      await expect(clear).toBeVisible();
      await expectFocusInside(clear, 'the "Switch and clear" dialog');
      await tabTo(page, clear.getByRole('button', { name: 'Switch and clear' }), { max: 5 });
      await page.keyboard.press('Enter');
      await expect(clear).toHaveCount(0);
      await expect(uploadTab).toHaveAttribute('aria-selected', 'true');
      await expectFocusOn(uploadTab, 'the chosen upload tab');

      const statementInput = fieldOf(page, 'personal_statement_doc').getByLabel(
        'Choose a file for Personal statement document',
      );
      await tabTo(page, statementInput, { max: 5 });
      await uploadFocused(page, 'personal_statement_doc', {
        name: 'statement.docx',
        mimeType: DOCX_TYPE,
        buffer: Buffer.from(makeSampleDocx()),
      });

      // The transcript: uploaded, deleted behind its dialog, and uploaded again.
      const transcript = fieldOf(page, 'hs_transcript');
      const transcriptInput = transcript.getByLabel(
        'Choose a file for Unofficial high school transcript',
      );
      await tabTo(page, transcriptInput);
      const firstScan = {
        name: 'scan.png',
        mimeType: 'image/png',
        buffer: Buffer.from(makePng({ width: 300, height: 200 })),
      };
      await uploadFocused(page, 'hs_transcript', firstScan);
      const remove = transcript.getByRole('button', { name: 'Delete scan.png' });
      await tabTo(page, remove, { max: 3 });
      await page.keyboard.press('Enter');
      const confirmDelete = page.getByRole('dialog', { name: 'Delete File' });
      await expect(confirmDelete).toBeVisible();
      // The harmless answer is focused first.
      await expectFocusOn(confirmDelete.getByRole('button', { name: 'Cancel' }), 'Cancel');
      await tabTo(page, confirmDelete.getByRole('button', { name: 'Delete', exact: true }), {
        max: 5,
      });
      await page.keyboard.press('Enter');
      await expect(confirmDelete).toHaveCount(0);
      await expect(transcript.getByRole('button', { name: 'Delete scan.png' })).toHaveCount(0);
      // The chooser took the card's place, and the focus.
      await expectFocusOn(transcriptInput, 'the transcript chooser');
      await uploadFocused(page, 'hs_transcript', { ...firstScan, name: 'transcript.png' });

      await tabTo(page, page.getByRole('button', { name: 'Save and Continue' }));
      await page.keyboard.press('Enter');

      // ---- Final Steps.
      await arriveAt(page, /\/final-steps$/, 'Final Steps');
      await expectNoAxeViolations(page, `/final-steps at ${name}`);
      await answerNo(page, 'conviction');
      await answerNo(page, 'protective');
      await answerNo(page, 'professional_licensure');
      const duty = fieldOf(page, 'continuing_duty_disclosure').getByRole('checkbox');
      await tabTo(page, duty);
      await page.keyboard.press('Space');
      await expect(duty).toBeChecked();
      const waive = fieldOf(page, 'counselor_waiver_request').getByRole('radio', {
        name: 'Yes, I waive my right to see them',
      });
      await tabTo(page, waive);
      await page.keyboard.press('Space');
      await expect(waive).toBeChecked();
      const agree = fieldOf(page, 'legal_agree').getByRole('checkbox');
      await tabTo(page, agree);
      await page.keyboard.press('Space');
      await expect(agree).toBeChecked();
      await tabTo(page, page.getByRole('button', { name: 'Submit' }));
      await page.keyboard.press('Enter');

      // ---- Completion.
      await arriveAt(page, /\/completion$/, 'Application Submitted');
      await expect(page.getByText(SUBMITTED_MESSAGE)).toBeVisible();
      await expectNoAxeViolations(page, `/completion at ${name}`);

      const answers = await profileAnswers(page);
      expect({
        first_name: answers.first_name,
        birth_date: answers.birth_date,
        phone_home: answers.phone_home,
        state: answers.state,
        country: answers.country,
        citizenship_type: answers.citizenship_type,
        applied_major: answers.applied_major,
        transfer_student_credits: answers.transfer_student_credits,
        college_name: answers.college_name,
        college_2_name: answers.college_2_name,
        personal_statement_essay: answers.personal_statement_essay,
        personal_statement_doc: answers.personal_statement_doc,
        hs_transcript: answers.hs_transcript,
        conviction: answers.conviction,
        counselor_waiver_request: answers.counselor_waiver_request,
        legal_agree: answers.legal_agree,
      }).toEqual({
        first_name: 'Maria',
        birth_date: '2000-05-15',
        phone_home: '(954) 262-8000',
        state: 'FL',
        country: 'USA',
        citizenship_type: '1',
        applied_major: '338',
        transfer_student_credits: 'T',
        college_name: 'Broward College',
        college_2_name: 'Broward College',
        personal_statement_essay: '',
        personal_statement_doc: 'ANSWERED',
        hs_transcript: 'ANSWERED',
        conviction: 'N',
        counselor_waiver_request: 'Y',
        legal_agree: true,
      });
    });
  });
}
