import { describe, expect, it } from 'vitest';
import { nextNavigationState, readNavigationState } from './navigation-state';

describe('readNavigationState', () => {
  it('keeps the known, well-formed fields', () => {
    expect(
      readNavigationState({
        answers: { first_name: 'Ada' },
        toast: { severity: 'success', title: 'Done' },
        username: 'ada@example.com',
      }),
    ).toEqual({
      answers: { first_name: 'Ada' },
      toast: { severity: 'success', title: 'Done' },
      username: 'ada@example.com',
    });
  });

  it('drops anything malformed or unknown', () => {
    expect(readNavigationState(null)).toEqual({});
    expect(readNavigationState('state')).toEqual({});
    expect(
      readNavigationState({
        answers: { first_name: 3 },
        toast: { severity: 'info', title: 'x' },
        username: '   ',
        other: true,
      }),
    ).toEqual({});
    expect(readNavigationState({ answers: ['a'] })).toEqual({});
  });
});

describe('nextNavigationState', () => {
  it('carries the answers and adds the new fields', () => {
    const current = {
      answers: { first_name: 'Ada' },
      toast: { severity: 'error', title: 'Old' },
      username: 'old@example.com',
    };
    expect(nextNavigationState(current)).toEqual({ answers: { first_name: 'Ada' } });
    expect(
      nextNavigationState(current, {
        username: 'ada@example.com',
        toast: { severity: 'success', title: 'New' },
      }),
    ).toEqual({
      answers: { first_name: 'Ada' },
      username: 'ada@example.com',
      toast: { severity: 'success', title: 'New' },
    });
  });

  it('is empty when there is nothing to carry', () => {
    expect(nextNavigationState(undefined)).toEqual({});
  });
});
