import { describe, expect, it } from 'vitest';
import { applicationModel } from '../application/application-model';
import { MAJOR } from '../application/option-lists';
import { validApplicationAnswers } from '../test/application-fixtures';
import { fixtureModel } from '../test/fixture-model';
import type { Answers } from './model';
import {
  attachedDocuments,
  CHECKED_MARK,
  DOCUMENT_ATTACHED,
  hasAnswer,
  type PrintableApplication,
  type PrintableEntry,
  type PrintableGroup,
  type PrintablePage,
  type PrintableRepeat,
  type PrintableRow,
  type PrintableState,
  type PrintableTabs,
  printableApplication,
  printableRows,
  printableText,
  UNCHECKED_MARK,
} from './printable';
import { resolveModel, visibleKeys } from './resolve';

const fixture = (state: Partial<PrintableState>) =>
  printableApplication(fixtureModel, { answers: {}, ...state });

function pageOf(application: PrintableApplication, id: string): PrintablePage {
  const page = application.pages.find((candidate) => candidate.id === id);
  if (!page) throw new Error(`no page ${id}`);
  return page;
}

function groupOf(page: PrintablePage, id: string): PrintableGroup | undefined {
  return page.groups.find((group) => group.id === id);
}

function allRows(application: PrintableApplication): PrintableRow[] {
  return application.pages.flatMap((page) =>
    page.groups.flatMap((group) => printableRows(group.entries)),
  );
}

function rowOf(application: PrintableApplication, key: string): PrintableRow | undefined {
  return allRows(application).find((row) => row.key === key);
}

/** Each row as "label: text", for readable expectations. */
const lines = (entries: readonly PrintableEntry[]) =>
  printableRows(entries).map((row) => `${row.label}: ${printableText(row.value)}`);

function findEntry<K extends PrintableEntry['kind']>(
  entries: readonly PrintableEntry[],
  kind: K,
): Extract<PrintableEntry, { kind: K }> | undefined {
  return entries.find(
    (entry): entry is Extract<PrintableEntry, { kind: K }> => entry.kind === kind,
  );
}

describe('printable application on the fixture model', () => {
  it('keeps every page with its title and route, and no group without an answer', () => {
    const empty = fixture({});
    expect(empty.pages.map((page) => [page.id, page.title, page.route])).toEqual([
      ['about', 'About You', '/about'],
      ['education', 'Your Academics', '/education'],
    ]);
    expect(empty.pages.every((page) => page.groups.length === 0)).toBe(true);
  });

  it('shows a group once one answer exists, with every visible question in it', () => {
    const about = pageOf(fixture({ answers: { first_name: 'Ana' } }), 'about');
    const name = groupOf(about, 'name');
    expect(name?.title).toBe('Your name');
    expect(lines(name?.entries ?? [])).toEqual([
      'First name: Ana',
      'Date of birth: ',
      'Military service: ',
      `Text me updates: ${UNCHECKED_MARK}`,
      'Cell phone: ',
    ]);
    expect(printableRows(name?.entries ?? []).map((row) => row.answered)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('does not count an unticked checkbox as an answer', () => {
    const about = pageOf(fixture({ answers: { optin_sms_ind: false } }), 'about');
    expect(groupOf(about, 'name')).toBeUndefined();
    const ticked = pageOf(fixture({ answers: { optin_sms_ind: true } }), 'about');
    expect(rowOf({ pages: [ticked], coursework: null }, 'optin_sms_ind')?.value).toEqual({
      kind: 'checkbox',
      checked: true,
      mark: CHECKED_MARK,
    });
  });

  it('prints a select as its label, from the model before the stored _desc', () => {
    const application = fixture({ answers: { military: 'Y', military_desc: 'Stale label' } });
    expect(rowOf(application, 'military')?.value).toEqual({
      kind: 'choice',
      value: 'Y',
      label: 'Yes',
      options: null,
    });
    const unknown = fixture({ answers: { military: 'Q', military_desc: 'Kept label' } });
    expect(printableText(rowOf(unknown, 'military')?.value ?? { kind: 'text', text: '' })).toBe(
      'Kept label',
    );
  });

  it('prints an answer whose option has gone as its stored label, or its code without one', () => {
    const kept = rowOf(fixture({ answers: { major: '7', major_desc: 'Nursing (RN)' } }), 'major');
    expect(kept?.value).toMatchObject({ kind: 'choice', value: '7', label: 'Nursing (RN)' });
    expect(kept?.answered).toBe(true);
    const bare = rowOf(fixture({ answers: { military: 'Q' } }), 'military');
    expect(printableText(bare?.value ?? { kind: 'text', text: '' })).toBe('Q');
  });

  it('prints a radio group as the selected label and marks it among the options', () => {
    const value = rowOf(fixture({ answers: { major: '338' } }), 'major')?.value;
    expect(value).toEqual({
      kind: 'choice',
      value: '338',
      label: 'Film',
      options: [
        { value: '6', label: 'Nursing', selected: false },
        { value: '338', label: 'Film', selected: true },
        { value: '1', label: 'History', selected: false },
      ],
    });
  });

  it('lists add-another instances with their prefixes, only those with answers', () => {
    const application = fixture({
      answers: { military: 'Y', branch_name: 'Army', branch_3_name: 'Navy' },
      addAnother: { branches: 3 },
    });
    const about = pageOf(application, 'about');
    const repeat = findEntry(
      about.groups.flatMap((group) => group.entries),
      'repeat',
    );
    expect(repeat?.title).toBe('Military branches');
    expect(repeat?.instances.map((instance) => [instance.prefix, instance.label])).toEqual([
      ['branch_', 'Branch 1'],
      ['branch_3_', 'Branch 3'],
    ]);
    expect(lines(repeat?.instances[0]?.entries ?? [])).toEqual(['Branch: Army', 'Start year: ']);
    expect(rowOf(application, 'branch_3_name')?.key).toBe('branch_3_name');
  });

  it('leaves out instances beyond the add-another count and answers a condition hides', () => {
    const application = fixture({
      answers: { military: 'N', branch_name: 'Army', branch_2_name: 'Navy', first_name: 'A' },
      addAnother: { branches: 1 },
    });
    expect(rowOf(application, 'branch_name')).toBeUndefined();
    const shownOnce = fixture({
      answers: { military: 'Y', branch_name: 'Army', branch_2_name: 'Navy' },
      addAnother: { branches: 1 },
    });
    expect(rowOf(shownOnce, 'branch_2_name')).toBeUndefined();
  });

  it('shows radio-specific content after its question and only for the chosen answer', () => {
    const nursing = fixture({ answers: { major: '6', study_location: 'Main campus' } });
    const keys = printableRows(pageOf(nursing, 'education').groups[0]?.entries ?? []).map(
      (row) => row.key,
    );
    expect(keys.slice(0, 2)).toEqual(['major', 'study_location']);
    const history = fixture({ answers: { major: '1', study_location: 'Main campus' } });
    expect(rowOf(history, 'study_location')).toBeUndefined();
  });

  it('shows confirmation content once confirmed', () => {
    const unconfirmed = fixture({ answers: { agree: false, signature: 'Ana', credits: '3' } });
    expect(rowOf(unconfirmed, 'agree')?.value).toMatchObject({ mark: UNCHECKED_MARK });
    expect(rowOf(unconfirmed, 'signature')).toBeUndefined();
    const confirmed = fixture({ answers: { agree: true, signature: 'Ana' } });
    expect(lines(pageOf(confirmed, 'education').groups[0]?.entries ?? [])).toEqual(
      expect.arrayContaining([`I agree: ${CHECKED_MARK}`, 'Signature: Ana']),
    );
  });

  it('uses the first case of grouped conditions that holds', () => {
    const film = fixture({ answers: { major: '338', essay: 'Films', portfolio: 'site' } });
    expect(allRows(film).filter((row) => row.key === 'essay')).toHaveLength(1);
    expect(rowOf(film, 'portfolio')?.value).toEqual({ kind: 'text', text: 'site' });
    const history = fixture({ answers: { major: '1', essay: 'History', portfolio: 'site' } });
    expect(rowOf(history, 'essay')?.value).toEqual({ kind: 'text', text: 'History' });
    expect(rowOf(history, 'portfolio')).toBeUndefined();
  });

  it('shows only the chosen tab, and a document as attached with its answer key', () => {
    const written = fixture({ answers: { statement_text: 'Mine', statement_doc: 'ANSWERED' } });
    const writtenTabs = findEntry(
      pageOf(written, 'education').groups.flatMap((group) => group.entries),
      'tabs',
    ) as PrintableTabs;
    expect(writtenTabs.chosen).toEqual({ id: 'write', label: 'Write it here' });
    expect(lines(writtenTabs.entries)).toEqual(['Statement: Mine']);
    expect(rowOf(written, 'statement_doc')).toBeUndefined();

    const uploaded = fixture({
      answers: { statement_text: 'Mine', statement_doc: 'ANSWERED' },
      tabs: { statement_tabs: 'upload' },
      documents: { statement_doc: { file_name: 'essay.docx', file_size: 1200 } },
    });
    expect(rowOf(uploaded, 'statement_text')).toBeUndefined();
    expect(rowOf(uploaded, 'statement_doc')?.value).toEqual({
      kind: 'document',
      answerKey: 'statement_doc',
      attached: true,
      text: DOCUMENT_ATTACHED,
      fileName: 'essay.docx',
    });
    expect(attachedDocuments(uploaded).map((document) => document.answerKey)).toEqual([
      'statement_doc',
    ]);
  });

  it('does not count a document that is not converted, or not answered', () => {
    const pending = fixture({
      answers: { credits: '3' },
      tabs: { statement_tabs: 'upload' },
      documents: { statement_doc: { file_name: 'essay.pdf', status: 'IN_PROGRESS' } },
    });
    expect(rowOf(pending, 'statement_doc')?.value).toMatchObject({
      attached: false,
      text: '',
      fileName: null,
    });
    expect(attachedDocuments(pending)).toEqual([]);
  });

  it('shows only what the form itself shows (the same visibility rules)', () => {
    const states: PrintableState[] = [
      { answers: { first_name: 'A', military: 'Y', branch_name: 'X', branch_start_year: '2001' } },
      { answers: { major: '338', essay: 'E', portfolio: 'P', agree: true, signature: 'S' } },
      { answers: { major: '6', study_location: 'L', statement_doc: 'ANSWERED' } },
    ];
    for (const state of states) {
      const formState = { answers: state.answers, addAnother: {}, tabs: {}, isLoggedIn: true };
      const shown = visibleKeys(resolveModel(fixtureModel, formState));
      for (const row of allRows(fixture(state))) expect(shown.has(row.key)).toBe(true);
    }
  });
});

describe('printable application on the transfer application', () => {
  const answers = validApplicationAnswers();
  const application = printableApplication(applicationModel, { answers });

  it('has the three pages in order', () => {
    expect(application.pages.map((page) => page.title)).toEqual([
      'About You',
      'Your Academics',
      'Final Steps',
    ]);
  });

  it('prints every answer of a valid application somewhere', () => {
    const printed = new Set(allRows(application).map((row) => row.key));
    const schoolKeys = /^(hs|college)_(address_line_1|city|state|zip|ceeb|country)$/;
    for (const [key, value] of Object.entries(answers)) {
      if (key.endsWith('_desc') || value === '' || value === false || schoolKeys.test(key))
        continue;
      expect(printed, key).toContain(key);
    }
  });

  it('prints inputs as text, checkboxes as marks and choices as labels', () => {
    expect(rowOf(application, 'first_name')?.value).toEqual({ kind: 'text', text: 'Maria' });
    expect(printableText(rowOf(application, 'race_white')?.value ?? fail())).toBe(CHECKED_MARK);
    expect(printableText(rowOf(application, 'race_asian')?.value ?? fail())).toBe(UNCHECKED_MARK);
    expect(printableText(rowOf(application, 'gender')?.value ?? fail())).toBe(
      String(answers.gender_desc),
    );
    expect(printableText(rowOf(application, 'college_attended_from_month')?.value ?? fail())).toBe(
      'August',
    );
    expect(printableText(rowOf(application, 'legal_agree')?.value ?? fail())).toBe(CHECKED_MARK);
  });

  it('prints a school search as one line of text', () => {
    const school = rowOf(application, 'hs_name');
    expect(school?.widget).toBe('schoolSearch');
    expect(school?.label).toBe('High school name');
    expect(school?.value.kind).toBe('school');
    expect(printableText(school?.value ?? fail())).toBe(
      'Plantation High School, Plantation, Florida, United States of America',
    );
    expect(rowOf(application, 'hs_city')).toBeUndefined();
  });

  it('adds the CEEB code to a school line', () => {
    const withCeeb = printableApplication(applicationModel, {
      answers: { ...answers, college_ceeb: '5070', college_zip: '33301' },
    });
    expect(printableText(rowOf(withCeeb, 'college_name')?.value ?? fail())).toBe(
      'Broward College, Fort Lauderdale, Florida 33301, United States of America (CEEB code 5070)',
    );
  });

  it('leaves out groups without answers, and the mailing address when it is the same', () => {
    const sparse = printableApplication(applicationModel, { answers: { first_name: 'Maria' } });
    expect(sparse.pages.map((page) => page.groups.map((group) => group.title))).toEqual([
      ['Your name'],
      [],
      [],
    ]);
    expect(rowOf(application, 'mailing_address_line_1')).toBeUndefined();
    const finalSteps = pageOf(application, 'final-steps');
    expect(finalSteps.groups.map((group) => group.title)).toEqual([
      'Application fee',
      'COVID-19',
      'Disclosures',
      'Agreements',
    ]);
  });

  it('keeps questions outside any titled block in an untitled group', () => {
    const about = pageOf(application, 'about');
    const loose = about.groups.find((group) => group.title === null);
    expect(loose?.id).toBe('mailing_addr_same_as_perm_addr');
    expect(lines(loose?.entries ?? [])).toEqual([
      'Is your mailing address the same as your permanent address?: Yes',
    ]);
    const different = printableApplication(applicationModel, {
      answers: {
        ...answers,
        mailing_addr_same_as_perm_addr: 'N',
        mailing_address_line_1: 'PO Box 12',
        mailing_city: 'Miami',
        mailing_country: 'USA',
      },
    });
    const mailing = pageOf(different, 'about').groups.find((group) => group.title === null);
    const block = findEntry(mailing?.entries ?? [], 'block');
    expect(block?.title).toBe('Mailing address');
    expect(block?.layout).toBe('address');
    expect(lines(block?.entries ?? [])).toContain('Street address: PO Box 12');
  });

  it('shows the family members of the repeat with their prefixes and nested blocks', () => {
    const family = printableApplication(applicationModel, {
      answers: {
        ...answers,
        submit_parent_info: 'Y',
        parent_first_name: 'Rosa',
        parent_education: 'BACHELOR',
        parent_college_name: 'Florida State University',
        parent_2_first_name: 'Luis',
        parent_2_address_same_as_student: true,
      },
      addAnother: { family_members: 3 },
    });
    const about = pageOf(family, 'about');
    const repeat = findEntry(groupOf(about, 'family')?.entries ?? [], 'repeat') as PrintableRepeat;
    expect(repeat.instances.map((instance) => instance.prefix)).toEqual(['parent_', 'parent_2_']);
    const second = repeat.instances[1];
    expect(lines(second?.entries ?? [])).toContain(
      `Lives at my permanent address: ${CHECKED_MARK}`,
    );
    expect(findEntry(second?.entries ?? [], 'block')).toBeUndefined();
    expect(rowOf(family, 'other_first_name')).toBeUndefined();
  });

  it('shows the chosen personal statement tab and the attached documents in order', () => {
    const uploaded = printableApplication(applicationModel, {
      answers: { ...answers, personal_statement_doc: 'ANSWERED', hs_transcript: 'ANSWERED' },
      tabs: { personal_statement: 'upload' },
      documents: {
        hs_transcript: { file_name: 'transcript.pdf', file_size: 2000 },
        personal_statement_doc: { file_name: 'statement.docx', file_size: 3000 },
      },
    });
    expect(
      attachedDocuments(uploaded).map((document) => [document.answerKey, document.fileName]),
    ).toEqual([
      ['personal_statement_doc', 'statement.docx'],
      ['hs_transcript', 'transcript.pdf'],
    ]);
    const documents = groupOf(pageOf(uploaded, 'education'), 'documents');
    expect(lines(documents?.entries ?? [])).toEqual([
      `Personal statement document: ${DOCUMENT_ATTACHED}`,
      `Unofficial high school transcript: ${DOCUMENT_ATTACHED}`,
    ]);
  });

  it('clears answers the form would clear before printing', () => {
    const stale: Answers = { ...answers, applied_major: MAJOR.film, study_location: 'MAIN' };
    const printed = printableApplication(applicationModel, { answers: stale });
    expect(rowOf(printed, 'study_location')).toBeUndefined();
  });

  it('agrees with hasAnswer for every group it keeps', () => {
    for (const page of application.pages)
      for (const group of page.groups) expect(hasAnswer(group.entries)).toBe(true);
  });
});

function fail(): never {
  throw new Error('missing row');
}

describe('printable application with answered rows only (the staff reading view)', () => {
  const answeredOnly = (state: Partial<PrintableState>) =>
    printableApplication(fixtureModel, { answers: {}, ...state }, { answeredOnly: true });

  it('leaves out the questions of a shown group that have no answer', () => {
    const name = groupOf(pageOf(answeredOnly({ answers: { first_name: 'Ana' } }), 'about'), 'name');
    expect(lines(name?.entries ?? [])).toEqual(['First name: Ana']);
    expect(printableRows(name?.entries ?? []).every((row) => row.answered)).toBe(true);
  });

  it('leaves out unticked checkboxes and keeps ticked ones', () => {
    const unticked = pageOf(answeredOnly({ answers: { optin_sms_ind: false } }), 'about');
    expect(unticked.groups).toEqual([]);
    const ticked = answeredOnly({ answers: { first_name: 'Ana', optin_sms_ind: true } });
    expect(lines(groupOf(pageOf(ticked, 'about'), 'name')?.entries ?? [])).toEqual([
      'First name: Ana',
      `Text me updates: ${CHECKED_MARK}`,
    ]);
  });

  it('keeps only the chosen option of a radio group', () => {
    expect(rowOf(answeredOnly({ answers: { major: '338' } }), 'major')?.value).toEqual({
      kind: 'choice',
      value: '338',
      label: 'Film',
      options: [{ value: '338', label: 'Film', selected: true }],
    });
  });

  it('leaves out an unconfirmed confirmation and a document not attached', () => {
    const application = answeredOnly({ answers: { agree: false, major: '1' } });
    expect(rowOf(application, 'agree')).toBeUndefined();
    expect(allRows(application).every((row) => row.answered)).toBe(true);
  });

  it('keeps the same answered rows as the full projection, in the same order', () => {
    const answers = validApplicationAnswers();
    const full = printableApplication(applicationModel, { answers });
    const short = printableApplication(applicationModel, { answers }, { answeredOnly: true });
    const answered = (rows: PrintableRow[]) =>
      rows.filter((row) => row.answered).map((row) => [row.key, printableText(row.value)]);
    expect(allRows(short).map((row) => [row.key, printableText(row.value)])).toEqual(
      answered(allRows(full)),
    );
    expect(allRows(short).length).toBeLessThan(allRows(full).length);
    expect(short.coursework).toEqual(full.coursework);
    for (const page of short.pages)
      for (const group of page.groups) expect(group.entries.length).toBeGreaterThan(0);
  });

  it('still reads a school search as one line made of all its parts', () => {
    const short = printableApplication(
      applicationModel,
      { answers: validApplicationAnswers() },
      { answeredOnly: true },
    );
    expect(printableText(rowOf(short, 'hs_name')?.value ?? fail())).toBe(
      'Plantation High School, Plantation, Florida, United States of America',
    );
  });

  it('is off by default: every visible question of a shown group keeps its row', () => {
    const name = groupOf(pageOf(fixture({ answers: { first_name: 'Ana' } }), 'about'), 'name');
    expect(printableRows(name?.entries ?? [])).toHaveLength(5);
  });
});
