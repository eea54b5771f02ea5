import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { applicationModel } from '../../shared/application/application-model';
import type { CourseworkRules } from '../../shared/coursework/coursework-grading';
import type {
  CourseworkSubtotals,
  CourseworkTotals,
} from '../../shared/coursework/coursework-totals';
import {
  courseworkTotalsOf,
  type EnteredCoursework,
  enteredCoursework,
} from '../../shared/form/coursework-grids';
import { resolveModel } from '../../shared/form/resolve';
import type { AnswerStore } from '../app-state/answer-store';
import { CourseworkAmounts } from '../read-only/coursework-amounts';
import styles from './coursework-grid.module.css';
import { useFormContext } from './form-context';

const EVERYTHING = { answers: {}, addAnother: {}, tabs: {}, isLoggedIn: true };

/** The answers the totals read: every grid's answer and the keys that name its college. */
function courseworkKeys(): readonly string[] {
  const keys = new Set<string>();
  for (const place of resolveModel(applicationModel, EVERYTHING)) {
    const grid = place.field.coursework;
    if (!grid) continue;
    keys.add(place.key);
    for (const key of grid.collegeKeys) keys.add(place.resolveKey(key));
  }
  return [...keys];
}

export interface CourseworkOverview {
  entered: readonly EnteredCoursework[];
  totals: CourseworkTotals;
}

/** Every grid on the page shares one overview, worked out again when the answers change. */
function overviewOf(store: AnswerStore, rules: CourseworkRules): CourseworkOverview {
  return store.derived(rules, (state) => {
    const entered = enteredCoursework(applicationModel, state);
    return { entered, totals: courseworkTotalsOf(entered, rules) };
  });
}

/**
 * Every shown grid's coursework and the totals, worked out again only when a grid or the name of
 * its college changes (not at every keystroke elsewhere on the page).
 */
export function useCourseworkOverview(rules: CourseworkRules): CourseworkOverview {
  const { store } = useFormContext();
  // Once per grid drawn: the model does not change while the page is open.
  const keys = useMemo(courseworkKeys, []);
  const subscribe = useCallback(
    (listener: () => void) => {
      const offs = keys.map((key) => store.subscribeKey(key, listener));
      return () => {
        for (const off of offs) off();
      };
    },
    [store, keys],
  );
  const read = useCallback(
    () => keys.map((key) => String(store.get(key) ?? '')).join('\u0000'),
    [store, keys],
  );
  const snapshot = useSyncExternalStore(subscribe, read, read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the snapshot is the answers read here.
  return useMemo(() => overviewOf(store, rules), [snapshot, store, rules]);
}

/** What a polite live region says, once the applicant has paused: the GPA only when it changed. */
function useQuietAnnouncement(text: string, delayMs = 1500): string {
  const [said, setSaid] = useState('');
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => setSaid(text), delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);
  return said;
}

/**
 * This college's transfer GPA and units under its grid and, with more than one college, the
 * application's; units are semester units (quarter units converted). A change of this college's
 * GPA is announced once the applicant pauses.
 */
export function CourseworkTotalsView({
  subtotals,
  totals,
  collegeCount,
  collegeName,
}: {
  subtotals: CourseworkSubtotals | null;
  totals: CourseworkTotals;
  collegeCount: number;
  collegeName: string;
}) {
  const announced = useQuietAnnouncement(
    subtotals?.gpa ? `Transfer GPA at ${collegeName || 'this college'}: ${subtotals.gpa}` : '',
  );
  return (
    <div className={styles.totals}>
      <p className={styles.totalsTitle}>
        {collegeName ? `${collegeName}: ` : 'This college: '}
        <span className={styles.totalsNote}>in semester units</span>
      </p>
      <CourseworkAmounts
        amounts={subtotals ?? EMPTY_AMOUNTS}
        label={`Totals of ${collegeName || 'this college'}`}
      />
      {collegeCount > 1 ? (
        <>
          <p className={styles.totalsTitle}>All colleges</p>
          <CourseworkAmounts amounts={totals} label="Totals of all colleges" />
        </>
      ) : null}
      <p role="status" className="visually-hidden">
        {announced}
      </p>
    </div>
  );
}

const EMPTY_AMOUNTS: CourseworkSubtotals = {
  gpa: null,
  gradePoints: '0',
  gradedUnits: '0',
  transferableUnits: '0',
  inProgressUnits: '0',
  unitsAttempted: '0',
};
