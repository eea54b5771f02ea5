import { describe, expect, it } from 'vitest';
import { ANSWER_MESSAGES, answerKeySpecs, parseAnswerPatch } from './answer-keys';
import { fixtureModel } from './fixture-model';

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
