import { describe, expect, it } from 'vitest';
import { countryField, fixtureModel, regionField } from '../test/fixture-model';
import { ANSWER_MESSAGES } from './answer-keys';
import { isValidIsoDate } from './iso-date';
import type { FormModel, FormState } from './model';
import { resolveModel } from './resolve';
import { isRequired, todayIso, validateAnswers } from './validate';

const today = '2026-11-21';
const errorsFor = (partial: Partial<FormState>) =>
  validateAnswers(
    fixtureModel,
    { answers: {}, addAnother: {}, tabs: {}, isLoggedIn: true, ...partial },
    { today },
  );

describe('validation', () => {
  it('reports required fields of shown content only', () => {
    const errors = errorsFor({});
    expect(errors.first_name).toEqual(['First name is required.']);
    expect(errors.birth_date).toEqual(['A valid date of birth is required.']);
    expect(errors.branch_name).toBeUndefined();
    expect(errors.signature).toBeUndefined();
  });

  it('treats white space as empty', () => {
    expect(errorsFor({ answers: { first_name: '   ' } }).first_name).toEqual([
      'First name is required.',
    ]);
  });

  it('judges ages relative to the day of validation, at the boundaries', () => {
    expect(errorsFor({ answers: { birth_date: '2013-11-21' } }).birth_date).toBeUndefined();
    expect(errorsFor({ answers: { birth_date: '2013-11-22' } }).birth_date).toEqual([
      'You must be 13 years or older to apply.',
    ]);
    expect(errorsFor({ answers: { birth_date: '1926-11-21' } }).birth_date).toBeUndefined();
    expect(errorsFor({ answers: { birth_date: '1926-11-20' } }).birth_date).toEqual([
      'This date is not supported. Please contact help support for assistance.',
    ]);
  });

  it('does not repeat a message two rules share', () => {
    expect(errorsFor({ answers: { birth_date: '2001-02-30' } }).birth_date).toEqual([
      'A valid date of birth is required.',
    ]);
  });

  it('applies conditional requirements and instance labels', () => {
    expect(errorsFor({ answers: { optin_sms_ind: true } }).phone_mobile).toEqual([
      'A cell phone is required for texts.',
    ]);
    expect(errorsFor({ answers: { optin_sms_ind: false } }).phone_mobile).toBeUndefined();
    const errors = errorsFor({ answers: { military: 'Y' }, addAnother: { branches: 2 } });
    expect(errors.branch_name).toEqual(['Branch 1: name the branch.']);
    expect(errors.branch_2_name).toEqual(['Branch 2: name the branch.']);
  });

  it('fills the year into year-range messages', () => {
    const base = { military: 'Y', branch_name: 'Army' };
    expect(
      errorsFor({ answers: { ...base, branch_start_year: '1952' } }).branch_start_year,
    ).toBeUndefined();
    expect(
      errorsFor({ answers: { ...base, branch_start_year: '1951' } }).branch_start_year,
    ).toEqual(['The minimum supported year is 1952']);
    expect(
      errorsFor({ answers: { ...base, branch_start_year: '2027' } }).branch_start_year,
    ).toEqual(['The maximum supported year is 2026']);
  });

  it('checks digits, revealed content and radio-specific content', () => {
    expect(errorsFor({ answers: { credits: '12a' } }).credits).toEqual(['Digits only.']);
    expect(errorsFor({ answers: { credits: '12' } }).credits).toBeUndefined();
    expect(errorsFor({ answers: { agree: true } }).signature).toEqual(['Sign here.']);
    expect(errorsFor({ answers: { major: '6' } }).study_location).toEqual(['Choose a location.']);
  });

  it('knows real calendar dates', () => {
    expect(
      ['2024-02-29', '2023-02-29', '2023-13-01', '23-01-01', '2023-1-1'].map(isValidIsoDate),
    ).toEqual([true, false, false, false, false]);
    expect(todayIso(new Date(2026, 0, 5))).toBe('2026-01-05');
  });
});

describe('rules limited to some repeat instances', () => {
  const model: FormModel = {
    pages: [
      {
        id: 'p',
        route: '/p',
        title: 'P',
        items: [
          {
            kind: 'repeat',
            id: 'colleges',
            addLabel: 'college',
            instances: [
              { prefix: 'college_', label: 'College 1' },
              { prefix: 'college_2_', label: 'College 2' },
              { prefix: 'college_3_', label: 'College 3' },
            ],
            items: [
              {
                kind: 'field',
                key: 'name',
                widget: 'text',
                label: 'Name',
                rules: [{ type: 'required', message: '{instance}: name it.', instances: [0] }],
              },
              {
                kind: 'field',
                key: 'end',
                widget: 'year',
                label: 'End',
                years: { start: 2032, count: 10, direction: 'past' },
                rules: [
                  {
                    type: 'yearRange',
                    minYearsAgo: 0,
                    maxYearsAhead: 3,
                    minMessage: 'min {year}',
                    maxMessage: 'max {year}',
                    instances: [0],
                  },
                  {
                    type: 'yearRange',
                    minYearsAgo: 0,
                    maxYearsAhead: 5,
                    minMessage: 'min {year}',
                    maxMessage: 'max {year}',
                    instances: [1, 2],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
  const errors = (answers: FormState['answers']) =>
    validateAnswers(
      model,
      { answers, addAnother: { colleges: 3 }, tabs: {}, isLoggedIn: true },
      { today },
    );

  it('applies a rule to the listed instances only', () => {
    const found = errors({});
    expect(found.college_name).toEqual(['College 1: name it.']);
    expect(found.college_2_name).toBeUndefined();
    expect(found.college_3_name).toBeUndefined();
  });

  it('lets instances have their own limits', () => {
    const found = errors({ college_end: '2030', college_2_end: '2031', college_3_end: '2032' });
    expect(found.college_end).toEqual(['max 2029']);
    expect(found.college_2_end).toBeUndefined();
    expect(found.college_3_end).toEqual(['max 2031']);
  });
});

describe('answers checked again where they stand', () => {
  const stored = (answers: FormState['answers'], documents?: ReadonlySet<string>) =>
    validateAnswers(
      fixtureModel,
      { answers, addAnother: {}, tabs: { statement_tabs: 'upload' }, isLoggedIn: true },
      documents ? { today, documents } : { today },
    );

  it('asks for a new choice when a stored answer is no longer an option', () => {
    expect(stored({ military: 'Q', military_desc: 'Kept label' }).military).toEqual([
      ANSWER_MESSAGES.notAnOption,
    ]);
    expect(stored({ major: '7' }).major).toEqual([ANSWER_MESSAGES.notAnOption]);
    expect(stored({ military: 'N' }).military).toBeUndefined();
  });

  it('judges years against the list of the year of validation', () => {
    const base = { military: 'Y', branch_name: 'Army' };
    expect(stored({ ...base, branch_start_year: 'XX1999' }).branch_start_year).toEqual([
      ANSWER_MESSAGES.notAnOption,
    ]);
    expect(stored({ ...base, branch_start_year: '1990' }).branch_start_year).toBeUndefined();
  });

  it('refuses a stored checkbox that is not true, false or empty, and a date that is not real', () => {
    expect(stored({ optin_sms_ind: 'yes' }).optin_sms_ind).toEqual([
      ANSWER_MESSAGES.wrongType('boolean'),
    ]);
    expect(stored({ birth_date: 'not-a-date' }).birth_date).toEqual([
      'A valid date of birth is required.',
    ]);
  });

  it('wants a converted document for every answered file question', () => {
    expect(stored({ statement_doc: 'ANSWERED' }, new Set()).statement_doc).toEqual([
      ANSWER_MESSAGES.missingDocument,
    ]);
    expect(
      stored({ statement_doc: 'ANSWERED' }, new Set(['statement_doc'])).statement_doc,
    ).toBeUndefined();
    expect(stored({ statement_doc: '' }, new Set()).statement_doc).toBeUndefined();
  });

  it('judges a conditional dropdown against the list of its controller’s answer', () => {
    const model: FormModel = {
      pages: [
        {
          id: 'p',
          route: '/p',
          title: 'P',
          items: [countryField, regionField],
        },
      ],
    };
    const check = (answers: FormState['answers']) =>
      validateAnswers(model, { answers, addAnother: {}, tabs: {}, isLoggedIn: true }, { today });
    expect(check({ country: 'USA', region: 'ON' }).region).toEqual([ANSWER_MESSAGES.notAnOption]);
    expect(check({ country: 'CAN', region: 'ON' }).region).toBeUndefined();
  });
});

describe('which questions must be answered', () => {
  const model: FormModel = {
    pages: [
      {
        id: 'p',
        route: '/p',
        title: 'P',
        items: [
          {
            kind: 'field',
            key: 'first_name',
            widget: 'text',
            label: 'First name',
            rules: [{ type: 'required', message: 'Name it.' }],
          },
          { kind: 'field', key: 'middle_name', widget: 'text', label: 'Middle name' },
          {
            kind: 'field',
            key: 'gpa_scale',
            widget: 'select',
            label: 'GPA scale',
            rules: [
              {
                type: 'required',
                message: 'Choose a scale.',
                when: { valueKey: 'gpa', operator: 'answered' },
              },
            ],
          },
          {
            kind: 'field',
            key: 'phone',
            widget: 'phone',
            label: 'Phone',
            rules: [{ type: 'anyAnswered', keys: ['phone', 'cell'], message: 'One phone.' }],
          },
          {
            kind: 'field',
            key: 'agree',
            widget: 'checkbox',
            label: 'I agree',
            rules: [{ type: 'mustBeChecked', message: 'Tick it.' }],
          },
          {
            kind: 'field',
            key: 'hidden',
            widget: 'text',
            label: 'Hidden',
            showWhen: { valueKey: 'never', operator: 'answered' },
            rules: [{ type: 'required', message: 'Hidden.' }],
          },
          {
            kind: 'repeat',
            id: 'colleges',
            addLabel: 'college',
            instances: [
              { prefix: 'college_', label: 'College 1' },
              { prefix: 'college_2_', label: 'College 2' },
            ],
            items: [
              {
                kind: 'field',
                key: 'name',
                widget: 'text',
                label: 'Name',
                rules: [{ type: 'required', message: 'Name it.', instances: [0] }],
              },
              {
                kind: 'field',
                key: 'from_month',
                widget: 'month',
                label: 'From',
                rules: [
                  { type: 'required', message: 'When?', instances: [0] },
                  {
                    type: 'required',
                    message: 'When?',
                    when: { valueKey: '$name', operator: 'answered' },
                    instances: [1],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
  const requiredKeys = (answers: FormState['answers']) => {
    const state = { answers, addAnother: { colleges: 2 }, tabs: {}, isLoggedIn: true };
    return resolveModel(model, state)
      .filter((place) => isRequired(place, answers))
      .map((place) => place.key);
  };

  it('marks required rules and boxes that must be ticked, not optional or hidden fields', () => {
    expect(requiredKeys({})).toEqual(['first_name', 'agree', 'college_name', 'college_from_month']);
  });

  it('follows the conditions of required rules as answers change', () => {
    expect(requiredKeys({ gpa: '3.2' })).toContain('gpa_scale');
    expect(requiredKeys({ gpa: '' })).not.toContain('gpa_scale');
  });

  it('reads instance scopes and conditions on the same instance', () => {
    expect(requiredKeys({})).not.toContain('college_2_name');
    expect(requiredKeys({})).not.toContain('college_2_from_month');
    expect(requiredKeys({ college_2_name: 'Valencia' })).toContain('college_2_from_month');
    // Another instance's name does not count for this one.
    expect(requiredKeys({ college_name: 'Valencia' })).not.toContain('college_2_from_month');
  });

  it('leaves fields of an at-least-one-of group unmarked', () => {
    expect(requiredKeys({})).not.toContain('phone');
  });

  it('agrees with validation: a required field left empty is reported', () => {
    const state = { answers: {}, addAnother: { colleges: 2 }, tabs: {}, isLoggedIn: true };
    const errors = validateAnswers(model, state, { today });
    for (const key of requiredKeys({})) expect(errors[key], key).toBeDefined();
  });
});
