import { normalizeGrade } from '../../shared/coursework/coursework';
import {
  COURSE_TEXT_LIMITS,
  type CourseEntry,
  isBlankCourse,
} from '../../shared/coursework/coursework-answer';

/** The columns a pasted line fills, in a spreadsheet's order. */
export const PASTE_COLUMNS = ['subject', 'number', 'title', 'units', 'grade'] as const;

/** Whether pasted text is a spreadsheet's (a tab, or more than one line) rather than one word. */
export function isTabularPaste(text: string): boolean {
  return text.includes('\t') || /\r?\n./.test(text.trim());
}

/**
 * Lines copied from a spreadsheet as course rows: one line a course, its cells separated by tabs
 * (subject, number, title, units, grade). A trailing CR (Windows) and blank lines are ignored,
 * columns past the grade are dropped, each cell is trimmed and cut to what the grid stores, and
 * grades are written as the rules name them (`b +` is `B+`).
 */
export function parsePastedCourses(text: string): CourseEntry[] {
  const courses: CourseEntry[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/\r$/, '');
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    const cell = (index: number, name: keyof CourseEntry) =>
      (cells[index] ?? '').trim().slice(0, COURSE_TEXT_LIMITS[name]);
    const course: CourseEntry = {
      subject: cell(0, 'subject'),
      number: cell(1, 'number'),
      title: cell(2, 'title'),
      units: cell(3, 'units'),
      grade: normalizeGrade(cell(4, 'grade')).slice(0, COURSE_TEXT_LIMITS.grade),
    };
    if (!isBlankCourse(course)) courses.push(course);
  }
  return courses;
}

/**
 * The term's rows once pasted rows land at `at`: they replace the row pasted into and the rows
 * after it that are still blank, and push the filled rows after them down.
 */
export function withPastedCourses(
  courses: readonly CourseEntry[],
  at: number,
  pasted: readonly CourseEntry[],
): CourseEntry[] {
  const before = courses.slice(0, at);
  let after = courses.slice(at);
  let replaced = 0;
  while (replaced < pasted.length && after[0] && isBlankCourse(after[0])) {
    after = after.slice(1);
    replaced += 1;
  }
  // The row pasted into is replaced even when it had something typed in it.
  if (replaced === 0 && after.length > 0) after = after.slice(1);
  return [...before, ...pasted, ...after];
}
