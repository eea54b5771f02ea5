import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { MAX_COURSES, TERM_SYSTEMS, termName } from '../../shared/coursework/coursework';
import {
  type CourseworkAnswer,
  type CourseworkEntryProblem,
  courseworkCounts,
} from '../../shared/coursework/coursework-answer';
import type { CourseworkRules } from '../../shared/coursework/coursework-grading';
import type { CourseworkColumn } from '../../shared/form/model';
import { cx } from '../ui/cx';
import { AddTermControls } from './coursework-add-term';
import { removeTerm, roomLeft } from './coursework-edit';
import styles from './coursework-grid.module.css';
import type { CourseworkLocks } from './coursework-locks';
import { filledCourses, RemoveTermDialog } from './coursework-remove-term';
import { CellMessages, TermView, termFocus } from './coursework-term';
import formStyles from './form.module.css';

/** Where the focus goes after the next render: a `data-focus` name inside the grid. */
export type FocusTarget = string | null;

/** The grid's edits: the next answer, and where the focus goes once it is drawn. */
export type EditGrid = (
  change: (answer: CourseworkAnswer) => CourseworkAnswer,
  focus?: FocusTarget,
  say?: string,
) => void;

const SYSTEM_LABELS: Record<CourseworkAnswer['system'], string> = {
  quarter: 'Quarter',
  semester: 'Semester',
};

/** Every grade the tenant's rules know, for the grade cells' suggestions. */
function gradesOf(rules: CourseworkRules): string[] {
  return [
    ...Object.keys(rules.grade_points),
    ...rules.pass_grades,
    ...rules.no_credit_grades,
    ...rules.unfinished_grades,
  ];
}

export interface CourseworkEditorProps {
  /** Names the grid's ids and `data-focus` places: the answer key in the form. */
  idBase: string;
  label: ReactNode;
  help?: string | undefined;
  /** A message for a stored value that could not be read. */
  unreadable?: string | undefined;
  value: CourseworkAnswer;
  onChange: (next: CourseworkAnswer) => void;
  problems: readonly CourseworkEntryProblem[];
  columns: readonly CourseworkColumn[];
  rules: CourseworkRules;
  today: string;
  /** Courses and terms at the other colleges, for the limits on all together. */
  elsewhere: { courses: number; terms: number };
  /** `term-course` places of repeats not counted. */
  repeats?: ReadonlySet<string>;
  /** After submit: what may not change (see coursework-locks.ts). */
  locks?: CourseworkLocks | undefined;
  /** The terms' headings' level (4 in the form). */
  termHeadingLevel?: 4 | 5;
  /** Drawn after the terms: the totals. */
  children?: ReactNode;
}

const NO_REPEATS: ReadonlySet<string> = new Set();
const NO_PROBLEMS: readonly CourseworkEntryProblem[] = [];

/**
 * A college's coursework grid drawn on any value: the form binds it to the grid's answer; the
 * status page to a draft of an update after submit, with `locks` keeping what was submitted.
 */
export function CourseworkEditor({
  idBase,
  label,
  help,
  unreadable,
  value,
  onChange,
  problems,
  columns,
  rules,
  today,
  elsewhere,
  repeats = NO_REPEATS,
  locks,
  termHeadingLevel = 4,
  children,
}: CourseworkEditorProps) {
  const helpId = useId();
  const datalistId = useId();
  const container = useRef<HTMLFieldSetElement>(null);
  const pendingFocus = useRef<FocusTarget>(null);
  const [said, setSaid] = useState('');
  const [removing, setRemoving] = useState<number | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const answer = value;
  const room = roomLeft(answer, elsewhere);

  // One edit function for the grid's life, so unchanged rows are not drawn again at a keystroke.
  const current = useRef(answer);
  current.current = answer;
  const changed = useRef(onChange);
  changed.current = onChange;
  const edit = useCallback<EditGrid>((change, focus = null, say) => {
    const next = change(current.current);
    current.current = next;
    changed.current(next);
    pendingFocus.current = focus;
    if (say) setSaid(say);
  }, []);

  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    const element = container.current?.querySelector<HTMLElement>(`[data-focus="${target}"]`);
    element?.focus();
    // A dialog closing meanwhile (Remove term) gives the focus back here, not to its opener.
    returnFocus.current = element ?? null;
  });

  const askToRemove = (index: number) => {
    // Cancelled, the focus goes back to the button that asked.
    returnFocus.current = null;
    setRemoving(index);
  };
  const removeTermAt = (index: number) => {
    const term = answer.terms[index];
    const remaining = answer.terms.length - 1;
    const focus =
      remaining === 0 ? `${idBase}-add-term` : termFocus(idBase, Math.min(index, remaining - 1));
    edit(
      (current) => removeTerm(current, index),
      focus,
      term ? `${termName(term)} removed.` : undefined,
    );
  };

  // One function for the grid's life, so that a term not typed in is not drawn again.
  const removeAt = useRef<(index: number) => void>(() => undefined);
  removeAt.current = (index) => {
    const term = answer.terms[index];
    if (term && filledCourses(term) > 0) askToRemove(index);
    else removeTermAt(index);
  };
  const onRemove = useCallback((index: number) => removeAt.current(index), []);

  const termProblems = useMemo(() => {
    const byTerm = new Map<number, CourseworkEntryProblem[]>();
    for (const problem of problems) {
      if (problem.term === null) continue;
      byTerm.set(problem.term, [...(byTerm.get(problem.term) ?? []), problem]);
    }
    return byTerm;
  }, [problems]);
  const gridMessages = problems
    .filter((problem) => problem.term === null)
    .map((problem) => problem.message);
  const grades = useMemo(() => gradesOf(rules), [rules]);
  const courseCount = courseworkCounts(answer).courses + elsewhere.courses;

  return (
    <fieldset
      ref={container}
      id={idBase}
      data-focus-invalid
      className={cx(formStyles.field, formStyles.wide, styles.grid)}
      aria-describedby={help ? helpId : undefined}
    >
      <legend className={cx(formStyles.label, styles.gridTitle)}>{label}</legend>
      {help ? (
        <p id={helpId} className={formStyles.help}>
          {help}
        </p>
      ) : null}
      {unreadable ? (
        <p className={formStyles.error} role="alert">
          {unreadable}
        </p>
      ) : null}
      {locks ? (
        <p className={styles.fixedSystem}>
          <span className={styles.smallLabel}>Term system</span> {SYSTEM_LABELS[answer.system]}
        </p>
      ) : (
        <fieldset className={styles.system}>
          <legend className={styles.smallLabel}>Term system</legend>
          {TERM_SYSTEMS.map((system) => (
            <label key={system} className={styles.systemChoice}>
              <input
                type="radio"
                className={formStyles.radio}
                name={`${idBase}-system`}
                value={system}
                checked={answer.system === system}
                onChange={() => edit((current) => ({ ...current, system }))}
              />
              {SYSTEM_LABELS[system]}
            </label>
          ))}
        </fieldset>
      )}
      <CellMessages id={`${idBase}-messages`} messages={gridMessages} />
      <datalist id={datalistId}>
        {grades.map((grade) => (
          <option key={grade} value={grade} />
        ))}
      </datalist>
      {answer.terms.map((term, index) => (
        <TermView
          // Terms are told apart by place: two may briefly share a name while one is changed.
          // biome-ignore lint/suspicious/noArrayIndexKey: the place is the term's identity here.
          key={index}
          answerKey={idBase}
          term={term}
          termIndex={index}
          columns={columns}
          problems={termProblems.get(index) ?? NO_PROBLEMS}
          repeats={repeats}
          datalistId={datalistId}
          roomForCourses={room.courses}
          today={today}
          edit={edit}
          locks={locks}
          headingLevel={termHeadingLevel}
          onRemove={onRemove}
        />
      ))}
      <RemoveTermDialog
        term={removing === null ? null : (answer.terms[removing] ?? null)}
        returnFocusRef={returnFocus}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing !== null) removeTermAt(removing);
          setRemoving(null);
        }}
      />
      <AddTermControls
        answer={answer}
        answerKey={idBase}
        today={today}
        full={room.terms === 0}
        edit={edit}
      />
      {room.courses === 0 ? (
        <p id={`${idBase}-course-limit`} className={styles.limit}>
          {courseCount >= MAX_COURSES
            ? `You have entered ${MAX_COURSES} courses, the most the application takes for all colleges together.`
            : `The application takes ${MAX_COURSES} courses at most for all colleges together: fill in or remove the empty rows to add more.`}
        </p>
      ) : null}
      {children}
      <p role="status" className="visually-hidden">
        {said}
      </p>
    </fieldset>
  );
}
