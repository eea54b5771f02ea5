import { memo, useId } from 'react';
import { termName } from '../../shared/coursework/coursework';
import type {
  CourseCell,
  CourseworkEntryProblem,
  TermEntry,
} from '../../shared/coursework/coursework-answer';
import type { CourseworkColumn } from '../../shared/form/model';
import { Button } from '../ui/button';
import { TermChoiceSelects, TermSelect } from './coursework-add-term';
import { addCourse, STATUS_LABELS, statusLabel, updateTerm } from './coursework-edit';
import type { EditGrid } from './coursework-editor';
import styles from './coursework-grid.module.css';
import type { CourseworkLocks } from './coursework-locks';
import { CourseRow } from './coursework-row';
import formStyles from './form.module.css';

/** The `data-focus` name of a cell: where the grid moves the focus after an edit. */
export const cellFocus = (answerKey: string, term: number, course: number, cell: CourseCell) =>
  `${answerKey}-t${term}-c${course}-${cell}`;
export const addCourseFocus = (answerKey: string, term: number) => `${answerKey}-t${term}-add`;
export const termFocus = (answerKey: string, term: number) => `${answerKey}-t${term}`;

/** A message beside a control, read with it through aria-describedby. */
export function CellMessages({ id, messages }: { id: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <div id={id} className={styles.messages}>
      {messages.map((message) => (
        <p key={message} className={formStyles.error}>
          <span aria-hidden="true" className={formStyles.errorIcon}>
            !
          </span>
          {message}
        </p>
      ))}
    </div>
  );
}

interface TermViewProps {
  answerKey: string;
  term: TermEntry;
  termIndex: number;
  columns: readonly CourseworkColumn[];
  problems: readonly CourseworkEntryProblem[];
  repeats: ReadonlySet<string>;
  datalistId: string;
  roomForCourses: number;
  today: string;
  edit: EditGrid;
  /** After submit: what may not change. */
  locks?: CourseworkLocks | undefined;
  /** The term's heading: h4 under the form's question, h5 under the status page's college. */
  headingLevel?: 4 | 5;
  /** Removes the term, asking first when it has courses. */
  onRemove: (termIndex: number) => void;
}

/** One term: its season, year and status, then its courses one row each. */
function TermSection({
  answerKey,
  term,
  termIndex,
  columns,
  problems,
  repeats,
  datalistId,
  roomForCourses,
  today,
  edit,
  locks,
  headingLevel = 4,
  onRemove,
}: TermViewProps) {
  const headingId = useId();
  const yearMessageId = useId();
  const name = termName(term);
  const termMessages = problems
    .filter((problem) => problem.course === null && problem.cell !== 'year')
    .map((problem) => problem.message);
  const yearMessages = problems
    .filter((problem) => problem.course === null && problem.cell === 'year')
    .map((problem) => problem.message);
  const change = (next: Partial<TermEntry>) =>
    edit((answer) => updateTerm(answer, termIndex, (current) => ({ ...current, ...next })));
  const lastRow = term.courses.length - 1;
  // A submitted term keeps its season and year; one submitted as completed keeps everything.
  const lock = locks?.term(termIndex) ?? null;
  const Heading = headingLevel === 5 ? 'h5' : 'h4';

  return (
    <section className={styles.term} aria-labelledby={headingId}>
      <div className={styles.termHead}>
        <Heading
          id={headingId}
          className={styles.termName}
          tabIndex={-1}
          data-focus={termFocus(answerKey, termIndex)}
        >
          {name}
          <span className={styles.termStatus}> · {STATUS_LABELS[term.status]}</span>
        </Heading>
        {lock ? null : (
          <Button
            type="button"
            variant="link"
            className={styles.remove}
            onClick={() => onRemove(termIndex)}
          >
            Remove term<span className="visually-hidden"> {name}</span>
          </Button>
        )}
      </div>
      {lock ? (
        lock.completed ? (
          <p className={styles.lockNote}>Submitted as completed: its courses stay as they are.</p>
        ) : (
          <div className={styles.termControls}>
            <TermSelect
              label="Status"
              value={term.status}
              choices={lock.statuses}
              labelOf={statusLabel}
              onChange={(status) => change({ status })}
            />
          </div>
        )
      ) : (
        <div className={styles.termControls}>
          <TermChoiceSelects
            term={term}
            today={today}
            onChange={change}
            yearMessageId={yearMessages.length > 0 ? yearMessageId : undefined}
          />
        </div>
      )}
      <CellMessages id={yearMessageId} messages={[...yearMessages, ...termMessages]} />
      <div className={styles.columnHeads} aria-hidden="true">
        {columns.map((column) => (
          <span key={column.cell} className={styles[column.cell]}>
            {column.label}
          </span>
        ))}
      </div>
      <ol className={styles.rows}>
        {term.courses.map((course, index) => (
          <CourseRow
            // biome-ignore lint/suspicious/noArrayIndexKey: a row is its place in the term.
            key={index}
            answerKey={answerKey}
            termIndex={termIndex}
            termLabel={name}
            course={course}
            courseIndex={index}
            rowCount={term.courses.length}
            columns={columns}
            problemText={rowProblemText(problems, index)}
            repeat={repeats.has(`${termIndex}-${index}`)}
            datalistId={datalistId}
            roomForCourses={lock?.completed ? 0 : roomForCourses}
            edit={edit}
            lockedCells={locks?.cells(termIndex, index).join(' ') ?? ''}
            kept={locks?.rowKept(termIndex, index) ?? false}
          />
        ))}
      </ol>
      {lock?.completed ? null : (
        <Button
          type="button"
          variant="secondary"
          className={styles.addCourse}
          onClick={() =>
            edit(
              (answer) => addCourse(answer, termIndex, lastRow),
              cellFocus(answerKey, termIndex, lastRow + 1, 'subject'),
            )
          }
          disabled={roomForCourses === 0}
          aria-describedby={roomForCourses === 0 ? `${answerKey}-course-limit` : undefined}
          data-focus={addCourseFocus(answerKey, termIndex)}
        >
          Add course<span className="visually-hidden"> to {name}</span>
        </Button>
      )}
    </section>
  );
}

/** A row's messages as one string, so a row re-renders only when its own messages change. */
function rowProblemText(problems: readonly CourseworkEntryProblem[], course: number): string {
  return JSON.stringify(
    problems
      .filter((problem) => problem.course === course)
      .map((problem) => [problem.cell, problem.message]),
  );
}

const sameProblems = (
  before: readonly CourseworkEntryProblem[],
  after: readonly CourseworkEntryProblem[],
): boolean =>
  before.length === after.length &&
  before.every((problem, index) => {
    const other = after[index];
    return (
      other !== undefined &&
      problem.term === other.term &&
      problem.course === other.course &&
      problem.cell === other.cell &&
      problem.message === other.message &&
      problem.named === other.named
    );
  });

const sameSet = (before: ReadonlySet<string>, after: ReadonlySet<string>): boolean =>
  before.size === after.size && [...before].every((item) => after.has(item));

/**
 * Props equal but for messages and repeats worked out anew: a keystroke in a course draws its own
 * term again, not the other terms of the grid (each with its selects of some 80 years).
 */
function sameTerm(before: TermViewProps, after: TermViewProps): boolean {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<
    keyof TermViewProps
  >;
  for (const name of names) {
    if (name === 'problems' || name === 'repeats') continue;
    if (before[name] !== after[name]) return false;
  }
  return (
    sameProblems(before.problems, after.problems) &&
    (before.repeats === after.repeats || sameSet(before.repeats, after.repeats))
  );
}

export const TermView = memo(TermSection, sameTerm);
