import { describe, expect, it } from 'vitest';
import { countryField, fixtureModel, regionField } from '../test/fixture-model';
import { ANSWER_MESSAGES, answerKeySpecs, parseAnswerPatch } from './answer-keys';
import type { FormModel } from './model';

const specs = answerKeySpecs(fixtureModel);

describe('the data model of answer keys', () => {
  it('holds every instance, tab, case and companion key', () => {
    for (const key of [
      'first_name',
      'branch_3_name',
      'statement_doc',
      'essay',
      'portfolio',
      'military_desc',
      'signature',
      'study_location',
    ]) {
      expect(specs.has(key), key).toBe(true);
    }
    expect(specs.get('optin_sms_ind')).toEqual({ type: 'boolean', maxLength: 45 });
    expect(specs.get('essay')?.maxLength).toBe(7000);
    expect(specs.get('statement_text')?.maxLength).toBe(1500);
    expect(specs.get('first_name')?.maxLength).toBe(45);
  });
});

describe('parsing an answer patch', () => {
  it('accepts known keys with values of the right type', () => {
    expect(
      parseAnswerPatch(specs, { first_name: 'Zoë 李', optin_sms_ind: true, agree: '' }),
    ).toEqual({
      ok: true,
      patch: { first_name: 'Zoë 李', optin_sms_ind: true, agree: '' },
    });
  });

  it('names every key at fault and keeps nothing', () => {
    const result = parseAnswerPatch(specs, {
      first_name: 'x'.repeat(46),
      optin_sms_ind: 'yes',
      made_up: 'x',
      birth_date: 12,
      credits: 'a\u0000b',
      military: '\uD800',
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        first_name: [ANSWER_MESSAGES.tooLong(45)],
        optin_sms_ind: [ANSWER_MESSAGES.wrongType('boolean')],
        made_up: [ANSWER_MESSAGES.unknownKey],
        birth_date: [ANSWER_MESSAGES.wrongType('string')],
        credits: [ANSWER_MESSAGES.badCharacters],
        military: [ANSWER_MESSAGES.badCharacters],
      },
    });
  });

  it('counts characters, not UTF-16 units', () => {
    expect(parseAnswerPatch(specs, { first_name: '😀'.repeat(45) }).ok).toBe(true);
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'x', 3]) expect(parseAnswerPatch(specs, body).ok).toBe(false);
  });
});

/** Fields of every widget the fixture lacks: a month, a plain date and a conditional dropdown. */
const choicesModel: FormModel = {
  pages: [
    {
      id: 'p',
      route: '/p',
      title: 'P',
      items: [
        {
          kind: 'field',
          key: 'start_month',
          widget: 'month',
          label: 'Month',
          options: [
            { value: '', label: '--' },
            { value: '1', label: 'January' },
            { value: '12', label: 'December' },
          ],
        },
        { kind: 'field', key: 'served_from', widget: 'date', label: 'Served from' },
        countryField,
        regionField,
      ],
    },
  ],
};

describe('values the model allows', () => {
  const in2026 = { currentYear: 2026 };
  const refused = (body: Record<string, unknown>, model: FormModel = fixtureModel) =>
    parseAnswerPatch(answerKeySpecs(model), body, in2026);

  it('refuses a select or radio answer that is not one of its options', () => {
    expect(refused({ military: 'ZZZ' })).toEqual({
      ok: false,
      errors: { military: [ANSWER_MESSAGES.notAnOption] },
    });
    expect(refused({ major: '7' })).toEqual({
      ok: false,
      errors: { major: [ANSWER_MESSAGES.notAnOption] },
    });
    expect(refused({ major: '338', military: 'Y' }).ok).toBe(true);
  });

  it('refuses a year the widget does not offer, and a month that is not one', () => {
    for (const year of ['1950', '2031', 'XX1999', '99'])
      expect(refused({ branch_start_year: year }), year).toEqual({
        ok: false,
        errors: { branch_start_year: [ANSWER_MESSAGES.notAnOption] },
      });
    expect(refused({ branch_start_year: '1952' }).ok).toBe(true);
    expect(refused({ start_month: '13' }, choicesModel)).toEqual({
      ok: false,
      errors: { start_month: [ANSWER_MESSAGES.notAnOption] },
    });
    expect(refused({ start_month: 'December' }, choicesModel).ok).toBe(false);
    expect(refused({ start_month: '12' }, choicesModel).ok).toBe(true);
  });

  it('refuses a date that is not a real YYYY-MM-DD date, with the field’s own message', () => {
    for (const date of ['not-a-date', '2023-02-30', '2023-2-3', '03/15/2023'])
      expect(refused({ birth_date: date }), date).toEqual({
        ok: false,
        errors: { birth_date: ['A valid date of birth is required.'] },
      });
    expect(refused({ served_from: '2023-02-30' }, choicesModel)).toEqual({
      ok: false,
      errors: { served_from: [ANSWER_MESSAGES.notADate] },
    });
    expect(refused({ served_from: '2024-02-29' }, choicesModel).ok).toBe(true);
    expect(refused({ birth_date: '2000-02-29' }).ok).toBe(true);
  });

  it('refuses every write of a file question, even an empty one', () => {
    for (const value of ['ANSWERED', '', 'x'])
      expect(refused({ statement_doc: value }), value).toEqual({
        ok: false,
        errors: { statement_doc: [ANSWER_MESSAGES.fileAnswer] },
      });
  });

  it('lets every other answer be cleared with an empty string', () => {
    const cleared = Object.fromEntries(
      [...answerKeySpecs(fixtureModel)]
        .filter(([key]) => key !== 'statement_doc')
        .map(([key]) => [key, '']),
    );
    expect(refused(cleared).ok).toBe(true);
  });

  it('accepts a label only with its answer, and only the label of that option', () => {
    expect(refused({ military: 'Y', military_desc: 'Yes' })).toEqual({
      ok: true,
      patch: { military: 'Y', military_desc: 'Yes' },
    });
    expect(refused({ military: '', military_desc: '' }).ok).toBe(true);
    expect(refused({ military: 'Y', military_desc: 'No' })).toEqual({
      ok: false,
      errors: { military_desc: [ANSWER_MESSAGES.labelMismatch] },
    });
    expect(refused({ military: '', military_desc: 'Yes' }).ok).toBe(false);
    expect(refused({ military_desc: 'Yes' })).toEqual({
      ok: false,
      errors: { military_desc: [ANSWER_MESSAGES.labelWithoutAnswer] },
    });
  });

  it('adds the label of an answer sent without it, so the stored pair always agrees', () => {
    expect(refused({ military: 'N' })).toEqual({
      ok: true,
      patch: { military: 'N', military_desc: 'No' },
    });
    expect(refused({ military: '' })).toEqual({
      ok: true,
      patch: { military: '', military_desc: '' },
    });
  });

  it('takes a conditional dropdown’s answer from any of its lists, since its controller may come later', () => {
    expect(refused({ region: 'ON', region_desc: 'Ontario' }, choicesModel).ok).toBe(true);
    expect(refused({ country: 'USA', region: 'ON' }, choicesModel).ok).toBe(true);
    expect(refused({ region: 'TX' }, choicesModel)).toEqual({
      ok: false,
      errors: { region: [ANSWER_MESSAGES.notAnOption] },
    });
    expect(refused({ region: 'FL', region_desc: 'Ontario' }, choicesModel).ok).toBe(false);
  });
});
