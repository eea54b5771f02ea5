import { type ClipboardEvent, type KeyboardEvent, memo, useId } from 'react';
import { MAX_COURSES } from '../../shared/coursework/coursework';
import {
  COURSE_TEXT_LIMITS,
  type CourseCell,
  type CourseEntry,
  gradeAsStored,
} from '../../shared/coursework/coursework-answer';
import type { CourseworkColumn } from '../../shared/form/model';
import { Button } from '../ui/button';
import { cx } from '../ui/cx';
import { addCourse, courseRowLabel, removeCourse, setCell, setCourses } from './coursework-edit';
import type { EditGrid } from './coursework-editor';
import styles from './coursework-grid.module.css';
import { isTabularPaste, parsePastedCourses, withPastedCourses } from './coursework-paste';
import { addCourseFocus, CellMessages, cellFocus } from './coursework-term';
import formStyles from './form.module.css';

interface CourseRowProps {
  answerKey: string;
  termIndex: number;
  /** `Fall 2024`. */
  termLabel: string;
  course: CourseEntry;
  courseIndex: number;
  rowCount: number;
  columns: readonly CourseworkColumn[];
  /** The row's messages as `[cell, message]` pairs in JSON: a string, so the row can be memoised. */
  problemText: string;
  repeat: boolean;
  datalistId: string;
  roomForCourses: number;
  edit: EditGrid;
  /** After submit: the cells that may not change, space-separated (a string, for the memo). */
  lockedCells: string;
  /** A submitted course, which stays. */
  kept: boolean;
}

const INPUT_MODES: Partial<Record<CourseCell, 'decimal' | 'text'>> = { units: 'decimal' };

/**
 * One course: a group named by its term, place, code and grade ("Fall 2024, course 2: MATH 1A,
 * grade A"), with a labelled input a cell. Enter moves to the next cell; in the last cell it goes
 * to the next row, adding one at the end. Lines pasted from a spreadsheet fill rows from here.
 */
function CourseRowView({
  answerKey,
  termIndex,
  termLabel,
  course,
  courseIndex,
  rowCount,
  columns,
  problemText,
  repeat,
  datalistId,
  roomForCourses,
  edit,
  lockedCells,
  kept,
}: CourseRowProps) {
  const locked = new Set(lockedCells.split(' '));
  const repeatId = useId();
  const problems = JSON.parse(problemText) as [string, string][];
  const rowName = courseRowLabel(termLabel, courseIndex, course);
  const rowMessages = problems.filter(([cell]) => cell === 'courses').map(([, message]) => message);
  const isLast = courseIndex === rowCount - 1;

  const goNext = (cellIndex: number) => {
    const next = columns[cellIndex + 1];
    // The cells are there already: the focus moves at once.
    const focus = (id: string) => document.getElementById(id)?.focus();
    if (next) {
      focus(cellFocus(answerKey, termIndex, courseIndex, next.cell));
      return;
    }
    if (!isLast) {
      focus(cellFocus(answerKey, termIndex, courseIndex + 1, 'subject'));
    } else if (roomForCourses > 0) {
      edit(
        (answer) => addCourse(answer, termIndex, courseIndex),
        cellFocus(answerKey, termIndex, courseIndex + 1, 'subject'),
      );
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, cellIndex: number) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    goNext(cellIndex);
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text/plain');
    // Lines pasted fill this row's cells: not into a submitted course.
    if (!isTabularPaste(text) || lockedCells !== '') return;
    event.preventDefault();
    // The row pasted into is already counted in the room left.
    const pasted = parsePastedCourses(text).slice(0, roomForCourses + 1);
    if (pasted.length === 0) return;
    const skipped = parsePastedCourses(text).length - pasted.length;
    edit(
      (answer) =>
        setCourses(answer, termIndex, (courses) => withPastedCourses(courses, courseIndex, pasted)),
      cellFocus(answerKey, termIndex, courseIndex + pasted.length - 1, 'grade'),
      `${pasted.length} ${pasted.length === 1 ? 'course' : 'courses'} pasted into ${termLabel}.${
        skipped > 0
          ? ` ${skipped} more did not fit: the application takes ${MAX_COURSES} courses at most.`
          : ''
      }`,
    );
  };
  const remove = () => {
    const remaining = rowCount - 1;
    edit(
      (answer) => removeCourse(answer, termIndex, courseIndex),
      remaining === 0
        ? addCourseFocus(answerKey, termIndex)
        : cellFocus(answerKey, termIndex, Math.min(courseIndex, remaining - 1), 'subject'),
      `${rowName} removed.`,
    );
  };

  return (
    <li>
      <fieldset
        className={cx(styles.row, repeat && styles.repeatRow)}
        aria-describedby={repeat ? repeatId : undefined}
      >
        <legend className="visually-hidden">{rowName}</legend>
        {columns.map((column, cellIndex) => {
          const id = cellFocus(answerKey, termIndex, courseIndex, column.cell);
          const messages = problems
            .filter(([cell]) => cell === column.cell)
            .map(([, message]) => message);
          const messageId = `${id}-message`;
          const isGrade = column.cell === 'grade';
          const readOnly = locked.has(column.cell);
          return (
            <div key={column.cell} className={cx(styles.cell, styles[column.cell])}>
              <label htmlFor={id} className={styles.cellLabel}>
                {column.label}
              </label>
              <input
                id={id}
                data-focus={id}
                className={cx(formStyles.input, styles.cellInput, readOnly && styles.lockedInput)}
                value={course[column.cell]}
                readOnly={readOnly}
                maxLength={COURSE_TEXT_LIMITS[column.cell]}
                inputMode={INPUT_MODES[column.cell]}
                enterKeyHint="next"
                autoComplete="off"
                spellCheck={false}
                list={isGrade && !readOnly ? datalistId : undefined}
                aria-invalid={messages.length > 0 || undefined}
                aria-describedby={messages.length > 0 ? messageId : undefined}
                onChange={(event) =>
                  edit((answer) =>
                    setCell(answer, termIndex, courseIndex, column.cell, event.target.value),
                  )
                }
                onBlur={
                  isGrade
                    ? (event) => {
                        const stored = gradeAsStored(event.target.value);
                        if (stored !== event.target.value)
                          edit((answer) =>
                            setCell(answer, termIndex, courseIndex, 'grade', stored),
                          );
                      }
                    : undefined
                }
                onKeyDown={(event) => onKeyDown(event, cellIndex)}
                onPaste={onPaste}
              />
              <CellMessages id={messageId} messages={messages} />
            </div>
          );
        })}
        {repeat || rowMessages.length > 0 ? (
          <div className={styles.rowNote}>
            {repeat ? (
              <p id={repeatId} className={styles.repeatNote}>
                Repeat — not counted
              </p>
            ) : null}
            <CellMessages id={`${repeatId}-limit`} messages={rowMessages} />
          </div>
        ) : null}
        <div className={styles.rowEnd}>
          {kept ? null : (
            <Button type="button" variant="link" className={styles.remove} onClick={remove}>
              Remove<span className="visually-hidden"> {rowName}</span>
            </Button>
          )}
        </div>
      </fieldset>
    </li>
  );
}

/**
 * Props equal but for a course read again from the stored text: each keystroke parses the grid's
 * answer anew, so a row compares its cells, and only the row typed into is drawn again.
 */
function sameRow(before: CourseRowProps, after: CourseRowProps): boolean {
  for (const name of Object.keys(after) as (keyof CourseRowProps)[]) {
    if (name === 'course') continue;
    if (before[name] !== after[name]) return false;
  }
  return (Object.keys(after.course) as (keyof CourseEntry)[]).every(
    (cell) => before.course[cell] === after.course[cell],
  );
}

export const CourseRow = memo(CourseRowView, sameRow);
