import { describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import { ANSWER_MESSAGES } from '../../shared/form/answer-keys';
import type { FormModel } from '../../shared/form/model';
import { PREFILL_MESSAGES, prepareAnswerSet } from './temporary-answer-sets';

describe('prepareAnswerSet', () => {
  it('keeps valid answers and fills the label of every choice from the model', () => {
    const prepared = prepareAnswerSet(applicationModel, {
      first_name: 'Maria',
      gender: 'F',
      gender_desc: 'Something the file made up',
      optin_sms_ind: true,
      middle_name: '',
      legal_agree: false,
    });
    expect(prepared).toEqual({
      ok: true,
      answers: { first_name: 'Maria', gender: 'F', gender_desc: 'Female', optin_sms_ind: true },
    });
  });

  it('refuses what PUT /api/answer refuses, naming each key', () => {
    const prepared = prepareAnswerSet(applicationModel, {
      first_name: 'x'.repeat(46),
      favourite_colour: 'blue',
      optin_sms_ind: 'yes',
      last_name: 7,
    });
    expect(prepared).toEqual({
      ok: false,
      errors: {
        first_name: [ANSWER_MESSAGES.tooLong(45)],
        favourite_colour: [ANSWER_MESSAGES.unknownKey],
        optin_sms_ind: [ANSWER_MESSAGES.wrongType('boolean')],
        last_name: [ANSWER_MESSAGES.wrongType('string')],
      },
    });
    for (const input of [null, [], 'answers', 3]) {
      expect(prepareAnswerSet(applicationModel, input)).toEqual({
        ok: false,
        errors: { _: [ANSWER_MESSAGES.notObject] },
      });
    }
  });

  it('refuses choices that are not options, documents and an empty set', () => {
    expect(
      prepareAnswerSet(applicationModel, { gender: 'Q', personal_statement_doc: 'ANSWERED' }),
    ).toEqual({
      ok: false,
      errors: {
        gender: [ANSWER_MESSAGES.notAnOption],
        personal_statement_doc: [ANSWER_MESSAGES.fileAnswer],
      },
    });
    expect(prepareAnswerSet(applicationModel, {})).toEqual({
      ok: false,
      errors: { _: [PREFILL_MESSAGES.empty] },
    });
    expect(prepareAnswerSet(applicationModel, { first_name: '', gender_desc: 'Female' })).toEqual({
      ok: false,
      errors: { _: [PREFILL_MESSAGES.empty] },
    });
  });

  it('judges a dependent dropdown against the options of its controlling answer', () => {
    const model: FormModel = {
      pages: [
        {
          id: 'p',
          route: '/about',
          title: 'About You',
          items: [
            {
              kind: 'field',
              key: 'country',
              widget: 'select',
              label: 'Country',
              options: [
                { value: 'USA', label: 'United States' },
                { value: 'CAN', label: 'Canada' },
              ],
            },
            {
              kind: 'field',
              key: 'state',
              widget: 'conditionalSelect',
              label: 'State',
              optionsFrom: {
                controllerKey: 'country',
                options: {
                  USA: [{ value: 'FL', label: 'Florida' }],
                  CAN: [{ value: 'ON', label: 'Ontario' }],
                },
              },
            },
          ],
        },
      ],
    };
    expect(prepareAnswerSet(model, { country: 'CAN', state: 'ON' })).toEqual({
      ok: true,
      answers: { country: 'CAN', country_desc: 'Canada', state: 'ON', state_desc: 'Ontario' },
    });
    expect(prepareAnswerSet(model, { country: 'USA', state: 'ON' })).toEqual({
      ok: false,
      errors: { state: [ANSWER_MESSAGES.notAnOption] },
    });
  });
});
