import { describe, expect, it } from 'vitest';
import {
  confirmQuestion,
  listTargetProblem,
  resultSentence,
  targetLabel,
} from './bulk-checklist-logic';

describe('the bulk checklist panel', () => {
  it('asks with the count', () => {
    expect(confirmQuestion('Official transcript', true, 1240)).toBe(
      'Mark Official transcript received for 1,240 applications?',
    );
    expect(confirmQuestion('Application fee', false, 1)).toBe(
      'Mark Application fee not received for 1 application?',
    );
  });

  it('says what was done', () => {
    expect(
      resultSentence({ marked: 1238, already: 2, not_applicable: 1 }, 'Official transcript', true),
    ).toBe(
      'Marked Official transcript received for 1,238 applications. 2 applications already were. 1 application does not have this item.',
    );
    expect(resultSentence({ marked: 3, already: 0, not_applicable: 0 }, 'Fee', false)).toBe(
      'Marked Fee not received for 3 applications.',
    );
  });

  it('refuses a whole list it cannot mark', () => {
    expect(listTargetProblem(null, true)).toBe('The list is still loading.');
    expect(listTargetProblem(0, true)).toBe('No applications in this list.');
    expect(listTargetProblem(5001, true)).toMatch(/at most 5,000/);
    expect(listTargetProblem(10000, false)).toMatch(/at most 5,000/);
    expect(listTargetProblem(5000, true)).toBeNull();
  });

  it('names the targets with their counts', () => {
    expect(targetLabel('selected', 3)).toBe('The 3 selected');
    expect(targetLabel('list', 1240)).toBe('All 1,240 in this list');
  });
});
