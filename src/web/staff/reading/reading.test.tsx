import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES_API } from '../../../shared/review/review-api';
import { listReply } from '../committee/committee-calls';
import { conflictErrors } from './conflicts-section';
import { agreementRowSchema, percentText } from './reading-calls';
import { AgreementTable } from './reading-page';
import {
  choicesOf,
  conditionOf,
  conditionSentence,
  EVERY_APPLICATION,
  programOptions,
  stateOptions,
} from './rule-condition';
import { draftOf, emptyDraft, moved, rulesOf } from './rule-drafts';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const reader = '6f1c6f0e-3d5e-4b7a-9a57-0a4c1f2b7e10';

describe('the rule’s condition builder', () => {
  it('offers the application model’s programs and states, without the empty choice', () => {
    const programs = programOptions();
    expect(programs.find((option) => option.value === '205')?.label).toBe(
      'Computer Science (B.S.)',
    );
    expect(programs.some((option) => option.value === '')).toBe(false);
    expect(stateOptions().find((option) => option.value === 'CA')?.label).toBe('California');
  });

  it('stores the form engine’s `in` condition', () => {
    expect(conditionOf(EVERY_APPLICATION)).toBeNull();
    expect(conditionOf({ programs: ['205', '209'], states: [], other: null })).toEqual({
      valueKey: 'applied_major',
      operator: 'in',
      target: ['205', '209'],
    });
    expect(conditionOf({ programs: ['205'], states: ['CA', 'OR'], other: null })).toEqual({
      all: [
        { valueKey: 'applied_major', operator: 'in', target: ['205'] },
        { valueKey: 'state', operator: 'in', target: ['CA', 'OR'] },
      ],
    });
  });

  it('reads back what it stores', () => {
    for (const choices of [
      EVERY_APPLICATION,
      { programs: ['205'], states: [], other: null },
      { programs: [], states: ['FL'], other: null },
      { programs: ['201', '203'], states: ['FL', 'GA'], other: null },
    ])
      expect(choicesOf(conditionOf(choices))).toEqual(choices);
    expect(choicesOf({ valueKey: 'applied_major', operator: 'equals', target: '205' })).toEqual({
      programs: ['205'],
      states: [],
      other: null,
    });
  });

  it('keeps a condition it cannot show unchanged', () => {
    const written = {
      any: [{ valueKey: 'citizenship_type', operator: 'equals' as const, target: 'US' }],
    };
    const choices = choicesOf(written);
    expect(choices).toEqual({ programs: [], states: [], other: written });
    expect(conditionOf(choices)).toBe(written);
    const twice = {
      all: [
        { valueKey: 'applied_major', operator: 'in' as const, target: ['205'] },
        { valueKey: 'applied_major', operator: 'in' as const, target: ['209'] },
      ],
    };
    expect(choicesOf(twice).other).toBe(twice);
  });

  it('says the condition in words', () => {
    const labels = { programs: programOptions(), states: stateOptions() };
    expect(
      conditionSentence({ programs: ['205'], states: ['CA', 'OR'], other: null }, labels),
    ).toBe(
      'Applications whose program is Computer Science (B.S.) and state or territory is California or Oregon.',
    );
    expect(conditionSentence(EVERY_APPLICATION, labels)).toBe('Every application.');
  });
});

describe('the rules as saved', () => {
  const stored = {
    name: 'Computing',
    match: { valueKey: 'applied_major', operator: 'in' as const, target: ['205'] },
    reader_ids: [reader],
    cap: 40,
    enabled: true,
  };

  it('come back from the drafts as they were, in the drafts’ order', () => {
    const first = draftOf(stored, 'a');
    const second = draftOf({ ...stored, name: 'Everyone else', match: null, cap: null }, 'b');
    expect(rulesOf([first, second])).toEqual({
      ok: true,
      rules: [stored, { ...stored, name: 'Everyone else', match: null, cap: null }],
    });
    expect(rulesOf(moved([first, second], 1, -1))).toMatchObject({
      ok: true,
      rules: [{ name: 'Everyone else' }, { name: 'Computing' }],
    });
  });

  it('are refused rule by rule with the shared messages', () => {
    const checked = rulesOf([{ ...emptyDraft('x'), cap: '0' }]);
    expect(checked).toEqual({
      ok: false,
      errors: {
        x: [
          'Enter a cap from 1 to 10,000, or leave it empty.',
          'Name the rule.',
          REVIEW_MESSAGES_API.noReaders,
        ],
      },
    });
  });

  it('move within their bounds only', () => {
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
  });
});

describe('conflicts of interest', () => {
  it('are checked with the shared schema before they are sent', () => {
    expect(conflictErrors({ reader_id: '', kind: 'college', value: ' ', note: '' })).toEqual({
      reader_id: ['Choose a reader.'],
      value: ['Name the college or the application.'],
    });
    expect(conflictErrors({ reader_id: reader, kind: 'college', value: '4144', note: '' })).toEqual(
      {},
    );
  });
});

describe('agreement between readers', () => {
  it('is read leniently: bare or wrapped, with figures missing', () => {
    const read = listReply(agreementRowSchema, 'cycles', 'agreement');
    const rows = read({
      cycles: [
        { cycle: 'FA26', count: 120, mean_difference: 0.4321, within_gap_share: 0.9, extra: 1 },
        { cycle: 'SP27' },
      ],
    });
    expect(rows.map((row) => row.cycle)).toEqual(['FA26', 'SP27']);
    expect(read([{ cycle: 'FA26' }])).toHaveLength(1);
    expect(() => read({ nothing: true })).toThrow();
    const text = textOf(renderToStaticMarkup(<AgreementTable rows={rows} />));
    expect(text).toContain('FA26 120 0.43 90%');
    expect(text).toContain('SP27');
  });

  it('shows a share as a percentage', () => {
    expect(percentText(0.875)).toBe('88%');
    expect(percentText(87.5)).toBe('88%');
    expect(percentText(null)).toBe('');
  });
});
