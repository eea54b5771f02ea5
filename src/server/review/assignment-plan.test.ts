import { describe, expect, it } from 'vitest';
import { type PlanApplication, type PlanReader, planAssignments } from './assignment-plan';

const application = (id: string, extra: Partial<PlanApplication> = {}): PlanApplication => ({
  id,
  colleges: [],
  reads: [],
  ...extra,
});
const reader = (id: string, extra: Partial<PlanReader> = {}): PlanReader => ({
  id,
  open: 0,
  cap: null,
  conflicts: [],
  ...extra,
});
const many = (count: number) =>
  Array.from({ length: count }, (_, index) => application(`app-${index}`));
const loads = (perReader: Map<string, number>) => [...perReader.values()];

describe('planAssignments', () => {
  it('deals first reads round-robin in the readers’ order', () => {
    const plan = planAssignments(many(5), [reader('a'), reader('b'), reader('c')], {
      rounds: ['first'],
    });
    expect(plan.reads.map((read) => read.readerId)).toEqual(['a', 'b', 'c', 'a', 'b']);
    expect(loads(plan.perReader)).toEqual([2, 2, 1]);
    expect(plan.unassigned).toEqual([]);
  });

  it('keeps loads within one of each other over a large list with second reads', () => {
    const readers = Array.from({ length: 7 }, (_, index) => reader(`r${index}`));
    const plan = planAssignments(many(1000), readers, { rounds: ['first', 'second'] });
    expect(plan.reads).toHaveLength(2000);
    const counts = loads(plan.perReader);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });

  it('never gives the second read to the first read’s reader', () => {
    const plan = planAssignments(many(50), [reader('a'), reader('b')], {
      rounds: ['first', 'second'],
    });
    for (let index = 0; index < 50; index++) {
      const [first, second] = plan.reads.filter((read) => read.applicationId === `app-${index}`);
      expect(first?.readerId).not.toBe(second?.readerId);
    }
  });

  it('leaves a second read unassigned when the only reader already reads it', () => {
    const plan = planAssignments(many(2), [reader('a')], { rounds: ['first', 'second'] });
    expect(plan.reads).toHaveLength(2);
    expect(plan.unassigned).toEqual([
      { applicationId: 'app-0', round: 'second' },
      { applicationId: 'app-1', round: 'second' },
    ]);
  });

  it('respects existing loads: the least-loaded reader catches up first', () => {
    const plan = planAssignments(many(6), [reader('a', { open: 4 }), reader('b', { open: 0 })], {
      rounds: ['first'],
    });
    expect(plan.reads.map((read) => read.readerId)).toEqual(['b', 'b', 'b', 'b', 'a', 'b']);
  });

  it('never goes above a cap and reports what is left', () => {
    const plan = planAssignments(
      many(5),
      [reader('a', { cap: 1 }), reader('b', { cap: 2, open: 0 })],
      {
        rounds: ['first'],
      },
    );
    expect(loads(plan.perReader)).toEqual([1, 2]);
    expect(plan.unassigned).toHaveLength(2);
    const full = planAssignments(many(1), [reader('a', { cap: 3, open: 3 })], {
      rounds: ['first'],
    });
    expect(full.reads).toEqual([]);
    expect(full.unassigned).toHaveLength(1);
  });

  it('skips a reader with a college conflict by CEEB code or by name without case', () => {
    const readers = [
      reader('a', { conflicts: [{ kind: 'college', value: '4321' }] }),
      reader('b', { conflicts: [{ kind: 'college', value: 'Valley College' }] }),
      reader('c'),
    ];
    const byCode = application('x', { colleges: [{ ceeb: '4321', name: 'Somewhere' }] });
    const byName = application('y', { colleges: [{ ceeb: null, name: 'VALLEY college ' }] });
    const neither = application('z', { colleges: [{ ceeb: '43210', name: 'Valley Colleges' }] });
    const plan = planAssignments([byCode, byName, neither], readers, { rounds: ['first'] });
    expect(plan.reads).toEqual([
      { applicationId: 'x', round: 'first', readerId: 'b' },
      { applicationId: 'y', round: 'first', readerId: 'a' },
      { applicationId: 'z', round: 'first', readerId: 'c' },
    ]);
  });

  it('skips a reader with a conflict on the applicant, and leaves the read when all conflict', () => {
    const readers = [
      reader('a', { conflicts: [{ kind: 'applicant', value: 'app-0' }] }),
      reader('b', { conflicts: [{ kind: 'applicant', value: 'app-0' }] }),
    ];
    const plan = planAssignments(many(2), readers, { rounds: ['first'] });
    expect(plan.reads).toEqual([{ applicationId: 'app-1', round: 'first', readerId: 'a' }]);
    expect(plan.unassigned).toEqual([{ applicationId: 'app-0', round: 'first' }]);
  });

  it('adds only the rounds missing and counts applications already complete', () => {
    const done = application('done', {
      reads: [
        { round: 'first', readerId: 'a' },
        { round: 'second', readerId: 'b' },
      ],
    });
    const half = application('half', { reads: [{ round: 'first', readerId: 'a' }] });
    const plan = planAssignments([done, half], [reader('a'), reader('b')], {
      rounds: ['first', 'second'],
    });
    expect(plan.alreadyAssigned).toBe(1);
    expect(plan.reads).toEqual([{ applicationId: 'half', round: 'second', readerId: 'b' }]);
  });

  it('fills waiting reads with the least-loaded reader not already on the application', () => {
    const waiting = application('w', {
      reads: [
        { round: 'first', readerId: 'a' },
        { round: 'second', readerId: 'b' },
        { id: 'read-3', round: 'third', readerId: null },
      ],
    });
    const plan = planAssignments(
      [waiting],
      [reader('a'), reader('b', { open: 0 }), reader('c', { open: 5 }), reader('d', { open: 2 })],
      { rounds: [], fillWaiting: true },
    );
    expect(plan.fills).toEqual([{ readId: 'read-3', applicationId: 'w', readerId: 'd' }]);
    expect(plan.reads).toEqual([]);
    expect(plan.alreadyAssigned).toBe(0);
  });
});
