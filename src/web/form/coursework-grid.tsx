import { useCallback, useMemo, useRef, useState } from 'react';
import {
  type CourseworkAnswer,
  courseworkCounts,
  courseworkEntryProblems,
  parseCourseworkAnswer,
  serializeCourseworkAnswer,
} from '../../shared/coursework/coursework-answer';
import type { KeyResolver } from '../../shared/form/conditions';
import type { CourseworkGrid } from '../../shared/form/model';
import { useTenantConfig } from '../data/tenant';
import { EMPTY_COURSEWORK } from './coursework-edit';
import { CourseworkEditor } from './coursework-editor';
import { CourseworkTotalsView, useCourseworkOverview } from './coursework-totals-view';
import type { FieldPlace } from './field';
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

export type { EditGrid, FocusTarget } from './coursework-editor';

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
  const stored = typeof value === 'string' ? value : '';
  // The college's name, the last of the keys that name it, for the totals' heading.
  const collegeName = useAnswer(resolveKey(grid.collegeKeys.at(-1) ?? '$name'));
  const parsed = useMemo(() => parseCourseworkAnswer(stored), [stored]);
  // What the checks and the totals read: the answer as stored.
  const answer = parsed.ok && parsed.answer ? parsed.answer : EMPTY_COURSEWORK;
  // The rows as typed. A keystroke draws them at once; the grid's text is written after the
  // frame (store.setSoon), and the checks and totals follow the stored answer then. The text
  // they were written as tells the grid's own answer from one changed elsewhere (a new session).
  const [typed, setTyped] = useState<CourseworkAnswer | null>(null);
  const writtenAs = useRef<string | null>(null);
  const shown =
    typed !== null && (store.isPending(answerKey) || stored === writtenAs.current) ? typed : answer;
  const overview = useCourseworkOverview(rules);

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
  const collegeIndex = overview.entered.findIndex((entered) => entered.key === answerKey);
  const repeats = useMemo(() => {
    const positions = new Set<string>();
    for (const excluded of overview.totals.excludedRepeats)
      if (excluded.college === collegeIndex) positions.add(`${excluded.term}-${excluded.course}`);
    return positions;
  }, [overview.totals.excludedRepeats, collegeIndex]);

  const onChange = useCallback(
    (next: CourseworkAnswer) => {
      setTyped(next);
      store.setSoon(answerKey, () => {
        const text = serializeCourseworkAnswer(next);
        writtenAs.current = text;
        return text;
      });
    },
    [store, answerKey],
  );

  return (
    <CourseworkEditor
      idBase={answerKey}
      label={grid.label}
      help={grid.help}
      unreadable={parsed.ok ? undefined : parsed.message}
      value={shown}
      onChange={onChange}
      problems={problems}
      columns={grid.columns}
      rules={rules}
      today={today}
      elsewhere={elsewhere}
      repeats={repeats}
    >
      <CourseworkTotalsView
        subtotals={overview.totals.colleges[collegeIndex] ?? null}
        totals={overview.totals}
        collegeCount={overview.entered.length}
        collegeName={typeof collegeName === 'string' ? collegeName : ''}
      />
    </CourseworkEditor>
  );
}
