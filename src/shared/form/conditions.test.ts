import { describe, expect, it } from 'vitest';
import { conditionKeys, evaluate, evaluateCondition, isAnswered } from './conditions';
import type { Answers, Condition } from './model';

const answers: Answers = {
  major: '748',
  credits: '30',
  empty: '',
  yes: true,
  no: false,
  date: '2001-05-06',
};

describe('conditions', () => {
  it.each<[Condition, boolean]>([
    [{ valueKey: 'major', operator: 'equals', target: '748' }, true],
    [{ valueKey: 'major', operator: 'equals', target: 748 }, true],
    [{ valueKey: 'major', operator: 'equals', target: '7' }, false],
    [{ valueKey: 'major', operator: 'notEquals', target: '7' }, true],
    [{ valueKey: 'missing', operator: 'notEquals', target: '7' }, true],
    [{ valueKey: 'missing', operator: 'equals', target: '' }, true],
    [{ valueKey: 'credits', operator: 'lt', target: 31 }, true],
    [{ valueKey: 'credits', operator: 'lt', target: 30 }, false],
    [{ valueKey: 'credits', operator: 'lte', target: 30 }, true],
    [{ valueKey: 'credits', operator: 'gt', target: '29' }, true],
    [{ valueKey: 'credits', operator: 'gt', target: 30 }, false],
    [{ valueKey: 'credits', operator: 'gte', target: 30 }, true],
    [{ valueKey: 'credits', operator: 'gte', target: '100' }, false],
    [{ valueKey: 'empty', operator: 'gte', target: 0 }, false],
    [{ valueKey: 'empty', operator: 'lt', target: 10 }, false],
    [{ valueKey: 'date', operator: 'lt', target: '2002-01-01' }, true],
    [{ valueKey: 'credits', operator: 'lt', target: 'abc' }, false],
    [{ valueKey: 'major', operator: 'answered' }, true],
    [{ valueKey: 'empty', operator: 'answered' }, false],
    [{ valueKey: 'no', operator: 'answered' }, false],
    [{ valueKey: 'yes', operator: 'answered' }, true],
    [{ valueKey: 'missing', operator: 'notAnswered' }, true],
    [{ valueKey: 'major', operator: 'notAnswered' }, false],
    [{ valueKey: 'major', operator: 'in', target: ['6', '7', '748'] }, true],
    [{ valueKey: 'major', operator: 'in', target: [6, 7] }, false],
    [{ valueKey: 'major', operator: 'notIn', target: ['6', '7'] }, true],
    [{ valueKey: 'major', operator: 'notIn', target: ['748'] }, false],
    [{ valueKey: 'yes', operator: 'equals', target: true }, true],
  ])('%j is %s', (condition, expected) => {
    expect(evaluateCondition(condition, answers)).toBe(expected);
  });

  it('treats truthy values as answered', () => {
    expect([
      isAnswered(''),
      isAnswered(false),
      isAnswered(undefined),
      isAnswered('0'),
      isAnswered(true),
    ]).toEqual([false, false, false, true, true]);
  });

  it('combines with all, any and not, and holds when there is no condition', () => {
    const major = { valueKey: 'major', operator: 'equals', target: '748' } as const;
    const none = { valueKey: 'empty', operator: 'answered' } as const;
    expect(evaluate(undefined, answers)).toBe(true);
    expect(evaluate({ all: [major, none] }, answers)).toBe(false);
    expect(evaluate({ any: [major, none] }, answers)).toBe(true);
    expect(evaluate({ not: none }, answers)).toBe(true);
    expect(evaluate({ all: [] }, answers)).toBe(true);
    expect(evaluate({ any: [] }, answers)).toBe(false);
  });

  it('resolves same-instance keys and lists the keys read', () => {
    const resolve = (key: string) => (key.startsWith('$') ? `hs_2_${key.slice(1)}` : key);
    expect(
      evaluate({ valueKey: '$name', operator: 'answered' }, { hs_2_name: 'Central' }, resolve),
    ).toBe(true);
    expect(
      conditionKeys(
        {
          all: [
            { valueKey: '$name', operator: 'answered' },
            { not: { valueKey: 'major', operator: 'answered' } },
          ],
        },
        resolve,
      ),
    ).toEqual(['hs_2_name', 'major']);
  });
});
