import { describe, expect, it } from 'vitest';
import { fixtureModel } from '../test/fixture-model';
import type { FormState } from './model';
import { hiddenAnswersPatch, resolveModel, visibleKeys } from './resolve';

const state = (partial: Partial<FormState>): FormState => ({
  answers: {},
  addAnother: {},
  tabs: {},
  isLoggedIn: true,
  ...partial,
});
const shown = (partial: Partial<FormState>) =>
  visibleKeys(resolveModel(fixtureModel, state(partial)));

describe('visibility', () => {
  it('shows a repeat only under its condition, up to the add-another count', () => {
    expect(shown({}).has('branch_name')).toBe(false);
    const one = shown({ answers: { military: 'Y' } });
    expect(one.has('branch_name')).toBe(true);
    expect(one.has('branch_2_name')).toBe(false);
    const two = shown({ answers: { military: 'Y' }, addAnother: { branches: 2 } });
    expect(two.has('branch_2_name')).toBe(true);
    expect(two.has('branch_3_name')).toBe(false);
    expect(
      shown({ answers: { military: 'Y' }, addAnother: { branches: 99 } }).has('branch_3_name'),
    ).toBe(true);
  });

  it('resolves same-instance conditions per instance', () => {
    const keys = shown({
      answers: { military: 'Y', branch_2_name: 'Navy' },
      addAnother: { branches: 2 },
    });
    expect(keys.has('branch_start_year')).toBe(false);
    expect(keys.has('branch_2_start_year')).toBe(true);
  });

  it('shows radio-specific content, revealed content and the chosen tab', () => {
    expect(shown({ answers: { major: '6' } }).has('study_location')).toBe(true);
    expect(shown({ answers: { major: '1' } }).has('study_location')).toBe(false);
    expect(shown({}).has('signature')).toBe(false);
    expect(shown({ answers: { agree: true } }).has('signature')).toBe(true);
    expect(shown({}).has('statement_text')).toBe(true);
    expect(shown({ tabs: { statement_tabs: 'upload' } }).has('statement_doc')).toBe(true);
    expect(shown({ tabs: { statement_tabs: 'upload' } }).has('statement_text')).toBe(false);
  });

  it('shows anonymous visitors the default tab only, and ignores unknown tabs', () => {
    expect(
      shown({ isLoggedIn: false, tabs: { statement_tabs: 'upload' } }).has('statement_text'),
    ).toBe(true);
    expect(shown({ tabs: { statement_tabs: 'nope' } }).has('statement_text')).toBe(true);
  });

  it('keeps a key of grouped conditions when the first true case shows it', () => {
    const film = shown({ answers: { major: '338' } });
    expect(film.has('essay')).toBe(true);
    expect(film.has('portfolio')).toBe(true);
    const history = shown({ answers: { major: '1' } });
    expect(history.has('essay')).toBe(true);
    expect(history.has('portfolio')).toBe(false);
  });

  it('includes the _desc companion of choices', () => {
    expect(shown({}).has('military_desc')).toBe(true);
    expect(shown({}).has('optin_sms_ind_desc')).toBe(false);
  });
});

describe('clearing hidden answers', () => {
  it('clears what a condition hides, cascading', () => {
    const patch = hiddenAnswersPatch(
      fixtureModel,
      state({
        answers: {
          military: 'N',
          branch_name: 'Army',
          branch_start_year: '1999',
          first_name: 'Ana',
        },
      }),
    );
    expect(patch).toEqual({ branch_name: '', branch_start_year: '' });
  });

  it('clears the keys of cases that are not the first true one, unless also shown', () => {
    const patch = hiddenAnswersPatch(
      fixtureModel,
      state({ answers: { major: '1', essay: 'text', portfolio: 'http://x' } }),
    );
    expect(patch).toEqual({ portfolio: '' });
  });

  it('clears the hidden tab, hidden instances and revealed content', () => {
    const patch = hiddenAnswersPatch(
      fixtureModel,
      state({
        answers: {
          statement_text: 'mine',
          statement_doc: 'ANSWERED',
          agree: false,
          signature: 'A',
          military: 'Y',
          branch_2_name: 'Navy',
        },
        tabs: { statement_tabs: 'upload' },
      }),
    );
    expect(patch).toEqual({ statement_text: '', signature: '', branch_2_name: '' });
  });

  it('leaves visible and empty answers alone', () => {
    expect(
      hiddenAnswersPatch(fixtureModel, state({ answers: { first_name: 'Ana', portfolio: '' } })),
    ).toEqual({});
  });
});
