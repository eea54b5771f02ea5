import { describe, expect, it } from 'vitest';
import type { CourseworkAnswer } from '../../shared/coursework/coursework-answer';
import { courseworkLocks } from './coursework-locks';

const course = (subject: string, grade = '') => ({
  subject,
  number: '1',
  title: '',
  units: '4',
  grade,
});
const blank = { subject: '', number: '', title: '', units: '', grade: '' };

const current: CourseworkAnswer = {
  system: 'semester',
  terms: [
    { season: 'fall', year: 2024, status: 'completed', courses: [course('MATH', 'A'), blank] },
    {
      season: 'spring',
      year: 2025,
      status: 'in_progress',
      courses: [course('CHEM'), course('HIST', 'P'), blank],
    },
    { season: 'fall', year: 2025, status: 'planned', courses: [course('PHYS')] },
  ],
};

describe('courseworkLocks', () => {
  const locks = courseworkLocks(current);

  it('keeps every cell and row of a term submitted as completed', () => {
    expect(locks.term(0)).toEqual({ completed: true, statuses: ['completed'] });
    expect(locks.cells(0, 0)).toEqual(['subject', 'number', 'title', 'units', 'grade']);
    expect(locks.cells(0, 1)).toEqual(['subject', 'number', 'title', 'units', 'grade']);
    expect(locks.rowKept(0, 1)).toBe(true);
  });

  it('leaves the grade of a submitted course without one open in a term not completed', () => {
    expect(locks.cells(1, 0)).toEqual(['subject', 'number', 'title', 'units']);
    expect(locks.rowKept(1, 0)).toBe(true);
  });

  it('keeps a grade already given', () => {
    expect(locks.cells(1, 1)).toContain('grade');
  });

  it('leaves blank and new rows open and removable', () => {
    expect(locks.cells(1, 2)).toEqual([]);
    expect(locks.rowKept(1, 2)).toBe(false);
    expect(locks.cells(1, 3)).toEqual([]);
    expect(locks.rowKept(1, 3)).toBe(false);
  });

  it('lets a term move forward only', () => {
    expect(locks.term(1)?.statuses).toEqual(['completed', 'in_progress']);
    expect(locks.term(2)?.statuses).toEqual(['completed', 'in_progress', 'planned']);
  });

  it('leaves a new term open', () => {
    expect(locks.term(3)).toBeNull();
    expect(locks.cells(3, 0)).toEqual([]);
    expect(locks.rowKept(3, 0)).toBe(false);
  });
});
