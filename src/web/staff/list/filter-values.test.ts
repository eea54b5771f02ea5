import { describe, expect, it } from 'vitest';
import { choiceSelection, dateFilterChanges, SEVERAL } from './filter-values';

const known = new Map([
  ['submitted', 'Submitted'],
  ['started', 'Started'],
]);

describe('a filter shown as one select', () => {
  it('shows any, the one value, or several', () => {
    expect(choiceSelection([], known)).toEqual({ value: '', unknown: undefined });
    expect(choiceSelection(['submitted'], known)).toEqual({
      value: 'submitted',
      unknown: undefined,
    });
    expect(choiceSelection(['submitted', 'started'], known)).toEqual({
      value: SEVERAL,
      unknown: undefined,
    });
  });

  it('keeps a single value the select does not offer, so the address is still shown', () => {
    expect(choiceSelection(['withdrawn'], known)).toEqual({
      value: 'withdrawn',
      unknown: 'withdrawn',
    });
    // Several values are shown as one option, known or not.
    expect(choiceSelection(['withdrawn', 'started'], known).unknown).toBeUndefined();
  });

  it('never collides with a real value', () => {
    expect(known.has(SEVERAL)).toBe(false);
    expect(SEVERAL.startsWith('\u0000')).toBe(true);
  });
});

describe('a date filter', () => {
  it('changes the list once the date is whole', () => {
    expect(dateFilterChanges('2026-09-01', '')).toBe(true);
    expect(dateFilterChanges('1999-12-31', '2026-09-01')).toBe(true);
  });

  it('waits while a year is being typed', () => {
    expect(dateFilterChanges('0002-09-01', '')).toBe(false);
    expect(dateFilterChanges('0020-09-01', '')).toBe(false);
    expect(dateFilterChanges('0202-09-01', '')).toBe(false);
  });

  it('changes the list when the box is emptied, and not for the date it already has', () => {
    expect(dateFilterChanges('', '2026-09-01')).toBe(true);
    expect(dateFilterChanges('', '')).toBe(false);
    expect(dateFilterChanges('2026-09-01', '2026-09-01')).toBe(false);
  });
});
