import { describe, expect, it } from 'vitest';
import { EMPTY_COURSE } from '../../shared/coursework/coursework-answer';
import { isTabularPaste, parsePastedCourses, withPastedCourses } from './coursework-paste';

const course = (subject: string, number = '1') => ({ ...EMPTY_COURSE, subject, number });

describe('parsePastedCourses', () => {
  it('reads one course a line, its cells separated by tabs', () => {
    expect(parsePastedCourses('MATH\t1A\tCalculus\t4\tA\nENGL\t1\tComposition\t3\tB+')).toEqual([
      { subject: 'MATH', number: '1A', title: 'Calculus', units: '4', grade: 'A' },
      { subject: 'ENGL', number: '1', title: 'Composition', units: '3', grade: 'B+' },
    ]);
  });

  it('ignores the CR of Windows line ends, blank lines and a last empty line', () => {
    expect(
      parsePastedCourses('MATH\t1A\tCalculus\t4\tA\r\n\r\n  \nCHEM\t1\tChem\t5\tB\r\n'),
    ).toEqual([
      { subject: 'MATH', number: '1A', title: 'Calculus', units: '4', grade: 'A' },
      { subject: 'CHEM', number: '1', title: 'Chem', units: '5', grade: 'B' },
    ]);
  });

  it('drops columns past the grade and leaves missing ones empty', () => {
    expect(parsePastedCourses('HIST\t17A\tUS History\t3\tA-\tFall\t2024\nPHYS\t4A')).toEqual([
      { subject: 'HIST', number: '17A', title: 'US History', units: '3', grade: 'A-' },
      { subject: 'PHYS', number: '4A', title: '', units: '', grade: '' },
    ]);
  });

  it('writes grades as the rules name them and trims every cell', () => {
    expect(parsePastedCourses(' math \t 1a \t Calculus \t 4.0 \t b + ')).toEqual([
      { subject: 'math', number: '1a', title: 'Calculus', units: '4.0', grade: 'B+' },
    ]);
  });

  it('cuts cells to what the grid stores', () => {
    const [row] = parsePastedCourses(`ABCDEFGHIJKLMNOP\t1\t${'x'.repeat(150)}\t4\tA`);
    expect(row?.subject).toBe('ABCDEFGHIJ');
    expect(row?.title).toHaveLength(100);
  });
});

describe('isTabularPaste', () => {
  it('is a spreadsheet paste with a tab or several lines, not a single word', () => {
    expect(isTabularPaste('MATH\t1A')).toBe(true);
    expect(isTabularPaste('MATH\nENGL')).toBe(true);
    expect(isTabularPaste('MATH')).toBe(false);
    expect(isTabularPaste('MATH\r\n')).toBe(false);
  });
});

describe('withPastedCourses', () => {
  it('fills the row pasted into and the blank rows after it, then adds rows', () => {
    const rows = [course('MATH'), { ...EMPTY_COURSE }, { ...EMPTY_COURSE }];
    const pasted = [course('A'), course('B'), course('C')];
    expect(withPastedCourses(rows, 1, pasted).map((row) => row.subject)).toEqual([
      'MATH',
      'A',
      'B',
      'C',
    ]);
  });

  it('keeps the filled rows after the paste below it', () => {
    const rows = [{ ...EMPTY_COURSE }, course('PHYS')];
    expect(withPastedCourses(rows, 0, [course('A'), course('B')]).map((r) => r.subject)).toEqual([
      'A',
      'B',
      'PHYS',
    ]);
  });
});
