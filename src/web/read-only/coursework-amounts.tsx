import type { CourseworkSubtotals } from '../../shared/coursework/coursework-totals';
import styles from './coursework-amounts.module.css';

/** `24` or `24.5` rather than `24.00`: units as a transcript prints them. */
export function unitsText(units: string): string {
  return String(Number(units));
}

/**
 * Transfer GPA and units, in semester units (quarter units converted): under the applicant's
 * grid as they type, and in the read-only view and the console, with the graded units too.
 */
export function CourseworkAmounts({
  amounts,
  label,
  withGradedUnits = false,
}: {
  amounts: CourseworkSubtotals;
  label: string;
  withGradedUnits?: boolean;
}) {
  return (
    <dl className={styles.amounts} aria-label={label}>
      <div>
        <dt>Transfer GPA</dt>
        <dd>{amounts.gpa ?? '—'}</dd>
      </div>
      <div>
        <dt>Transferable units</dt>
        <dd>{unitsText(amounts.transferableUnits)}</dd>
      </div>
      <div>
        <dt>In-progress units</dt>
        <dd>{unitsText(amounts.inProgressUnits)}</dd>
      </div>
      {withGradedUnits ? (
        <div>
          <dt>Graded units</dt>
          <dd>{unitsText(amounts.gradedUnits)}</dd>
        </div>
      ) : null}
    </dl>
  );
}
