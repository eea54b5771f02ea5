import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { MAX_COURSES, TERM_SYSTEMS, termName } from '../../shared/coursework/coursework';
import {
  type CourseworkAnswer,
  type CourseworkEntryProblem,
  courseworkCounts,
  courseworkEntryProblems,
  parseCourseworkAnswer,
  serializeCourseworkAnswer,
} from '../../shared/coursework/coursework-answer';
import type { CourseworkRules } from '../../shared/coursework/coursework-rules';
import type { KeyResolver } from '../../shared/form/conditions';
import type { CourseworkGrid } from '../../shared/form/model';
import { useTenantConfig } from '../data/tenant';
import { cx } from '../ui/cx';
import { AddTermControls } from './coursework-add-term';
import { EMPTY_COURSEWORK, removeTerm, roomLeft } from './coursework-edit';
import styles from './coursework-grid.module.css';
import { filledCourses, RemoveTermDialog } from './coursework-remove-term';
import { TermView, termFocus } from './coursework-term';
import { CourseworkTotalsView, useCourseworkOverview } from './coursework-totals-view';
import type { FieldPlace } from './field';
import formStyles from './form.module.css';
import { useFormContext } from './form-context';
import { useAnswer, useCondition } from './hooks';

export interface CourseworkGridProps {
  grid: CourseworkGrid;
  place: FieldPlace;
}

/** A college's coursework: shown while its condition holds (the college is named). */
export function CourseworkGridView({ grid, place }: CourseworkGridProps) {
  const shown = useCondition(grid.showWhen, place.resolveKey);
  if (!shown) return null;
  return (
    <ShownGrid grid={grid} answerKey={`${place.prefix}${grid.key}`} resolveKey={place.resolveKey} />
  );
}

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

/** Where the focus goes after the next render: a `data-focus` name inside the grid. */
export type FocusTarget = string | null;

/** The grid's edits: the next answer, and where the focus goes once it is drawn. */
export type EditGrid = (
  change: (answer: CourseworkAnswer) => CourseworkAnswer,
  focus?: FocusTarget,
  say?: string,
) => void;

function ShownGrid({
  grid,
  answerKey,
  resolveKey,
}: {
  grid: CourseworkGrid;
  answerKey: string;
  resolveKey: KeyResolver;
}) {
  const { store, today, validating } = useFormContext();
  const rules = useTenantConfig().coursework;
  const value = useAnswer(answerKey);
  // The college's name, the last of the keys that name it, for the totals' heading.
  const collegeName = useAnswer(resolveKey(grid.collegeKeys.at(-1) ?? '$name'));
  const parsed = useMemo(
    () => parseCourseworkAnswer(typeof value === 'string' ? value : ''),
    [value],
  );
  const answer = parsed.ok && parsed.answer ? parsed.answer : EMPTY_COURSEWORK;
  const overview = useCourseworkOverview(rules);
  const helpId = useId();
  const datalistId = useId();
  const container = useRef<HTMLFieldSetElement>(null);
  const pendingFocus = useRef<FocusTarget>(null);
  const [said, setSaid] = useState('');
  const [removing, setRemoving] = useState<number | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  const elsewhere = useMemo(() => {
    const counts = { courses: 0, terms: 0 };
    for (const entered of overview.entered) {
      if (entered.key === answerKey) continue;
      const other = courseworkCounts(entered.answer);
      counts.courses += other.courses;
      counts.terms += other.terms;
    }
    return counts;
  }, [overview.entered, answerKey]);

  // Save-stage messages as the server words them; at submit, what a finished entry needs too.
  const problems = useMemo(
    () =>
      courseworkEntryProblems(answer, {
        rules,
        today,
        stage: validating ? 'submit' : 'save',
        elsewhere,
      }),
    [answer, rules, today, validating, elsewhere],
  );
  const room = roomLeft(answer, elsewhere);
  const collegeIndex = overview.entered.findIndex((entered) => entered.key === answerKey);
  const repeats = useMemo(() => {
    const positions = new Set<string>();
    for (const excluded of overview.totals.excludedRepeats)
      if (excluded.college === collegeIndex) positions.add(`${excluded.term}-${excluded.course}`);
    return positions;
  }, [overview.totals.excludedRepeats, collegeIndex]);

  // One edit function for the grid's life, so unchanged rows are not drawn again at a keystroke.
  const current = useRef(answer);
  current.current = answer;
  const edit = useCallback<EditGrid>(
    (change, focus = null, say) => {
      const next = change(current.current);
      current.current = next;
      store.set(answerKey, serializeCourseworkAnswer(next));
      pendingFocus.current = focus;
      if (say) setSaid(say);
    },
    [store, answerKey],
  );

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
      remaining === 0
        ? `${answerKey}-add-term`
        : termFocus(answerKey, Math.min(index, remaining - 1));
    edit(
      (current) => removeTerm(current, index),
      focus,
      term ? `${termName(term)} removed.` : undefined,
    );
  };

  const termProblems = (index: number): CourseworkEntryProblem[] =>
    problems.filter((problem) => problem.term === index);
  const courseCount = courseworkCounts(answer).courses + elsewhere.courses;

  return (
    <fieldset
      ref={container}
      id={answerKey}
      data-focus-invalid
      className={cx(formStyles.field, formStyles.wide, styles.grid)}
      aria-describedby={grid.help ? helpId : undefined}
    >
      <legend className={cx(formStyles.label, styles.gridTitle)}>{grid.label}</legend>
      {grid.help ? (
        <p id={helpId} className={formStyles.help}>
          {grid.help}
        </p>
      ) : null}
      {parsed.ok ? null : (
        <p className={formStyles.error} role="alert">
          {parsed.message}
        </p>
      )}
      <fieldset className={styles.system}>
        <legend className={styles.smallLabel}>Term system</legend>
        {TERM_SYSTEMS.map((system) => (
          <label key={system} className={styles.systemChoice}>
            <input
              type="radio"
              className={formStyles.radio}
              name={`${answerKey}-system`}
              value={system}
              checked={answer.system === system}
              onChange={() => edit((current) => ({ ...current, system }))}
            />
            {SYSTEM_LABELS[system]}
          </label>
        ))}
      </fieldset>
      <datalist id={datalistId}>
        {gradesOf(rules).map((grade) => (
          <option key={grade} value={grade} />
        ))}
      </datalist>
      {answer.terms.map((term, index) => (
        <TermView
          // Terms are told apart by place: two may briefly share a name while one is changed.
          // biome-ignore lint/suspicious/noArrayIndexKey: the place is the term's identity here.
          key={index}
          answerKey={answerKey}
          term={term}
          termIndex={index}
          columns={grid.columns}
          problems={termProblems(index)}
          repeats={repeats}
          datalistId={datalistId}
          roomForCourses={room.courses}
          today={today}
          edit={edit}
          onRemove={(index) => (filledCourses(term) > 0 ? askToRemove(index) : removeTermAt(index))}
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
        answerKey={answerKey}
        today={today}
        full={room.terms === 0}
        edit={edit}
      />
      {room.courses === 0 ? (
        <p id={`${answerKey}-course-limit`} className={styles.limit}>
          {courseCount >= MAX_COURSES
            ? `You have entered ${MAX_COURSES} courses, the most the application takes for all colleges together.`
            : `The application takes ${MAX_COURSES} courses at most for all colleges together: fill in or remove the empty rows to add more.`}
        </p>
      ) : null}
      <CourseworkTotalsView
        subtotals={overview.totals.colleges[collegeIndex] ?? null}
        totals={overview.totals}
        collegeCount={overview.entered.length}
        collegeName={typeof collegeName === 'string' ? collegeName : ''}
      />
      <p role="status" className="visually-hidden">
        {said}
      </p>
    </fieldset>
  );
}
