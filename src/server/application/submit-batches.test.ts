import { describe, expect, it } from 'vitest';
import type { SubmitItem, SubmitOutcome } from './applications-store';
import { createSubmitBatches } from './submit-batches';

const item = (accountId: string): SubmitItem => ({
  accountId,
  version: '1',
  answers: {},
  draft: null,
  coursework: { gpa: null, transferUnits: '0.00', inProgressUnits: '0.00' },
});
const outcome: SubmitOutcome = { submittedAt: new Date(0), receipt: null };

describe('submit batches', () => {
  it('sends those that arrive during a statement together in the next, each account once', async () => {
    const statements: string[][] = [];
    const batches = createSubmitBatches(async (items) => {
      statements.push(items.map((one) => one.accountId));
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Map(items.map((one) => [one.accountId, outcome]));
    });
    const results = await Promise.all(['a', 'b', 'c', 'b'].map((id) => batches.submit(item(id))));
    expect(results).toEqual([outcome, outcome, outcome, outcome]);
    expect(statements).toEqual([['a'], ['b', 'c'], ['b']]);
  });

  it('answers null for a submit the statement left out', async () => {
    const batches = createSubmitBatches(async () => new Map());
    expect(await batches.submit(item('a'))).toBeNull();
  });

  it('sends each again on its own when a statement fails, so one failure stays its own', async () => {
    const statements: string[][] = [];
    const batches = createSubmitBatches(async (items) => {
      statements.push(items.map((one) => one.accountId));
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (items.some((one) => one.accountId === 'bad')) throw new Error('refused');
      return new Map(items.map((one) => [one.accountId, outcome]));
    });
    const results = await Promise.allSettled(
      ['a', 'b', 'bad', 'c'].map((id) => batches.submit(item(id))),
    );
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(statements).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });
});
