import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import type {
  CourseworkGridView,
  CourseworkOverview,
} from '../../shared/coursework/coursework-update-api';
import { courseworkQueryOptions } from '../data/coursework';
import { Button } from '../ui/button';
import styles from './coursework-updates-section.module.css';
import { formatMoment } from './format-time';
import statusStyles from './status-page.module.css';

/** The grid and its checks, loaded only when an applicant opens it. */
const CourseworkUpdateEditor = lazy(() =>
  import('./coursework-update-editor').then((module) => ({
    default: module.CourseworkUpdateEditor,
  })),
);

/** `60.00` as a transcript prints it: `60`. */
const units = (text: string) => String(Number(text));

/**
 * After submit, the coursework as it stands now, its totals, and its updates: the applicant adds
 * the grades of a term that was in progress, courses to a term not completed, or new terms, per
 * college, as an update the office sees dated. Shown only when the application has coursework.
 */
export function CourseworkUpdatesSection() {
  const headingId = useId();
  const { data } = useQuery(courseworkQueryOptions);
  const [said, setSaid] = useState('');
  if (!data?.submitted || data.grids.length === 0) return null;
  const collegeOf = new Map(data.grids.map((grid) => [grid.key, grid.college]));

  return (
    <section aria-labelledby={headingId} className={statusStyles.section} data-coursework-updates>
      <h2 id={headingId} className={statusStyles.sectionTitle}>
        Your coursework
      </h2>
      <p className={statusStyles.summary}>
        When a term in progress ends, or you take more courses, add them here: the admissions office
        sees each update with its date.
      </p>
      <Totals overview={data} />
      <p role="status" className={styles.said}>
        {said}
      </p>
      <ul className={styles.colleges}>
        {data.grids.map((grid) => (
          <CollegeCoursework
            key={grid.key}
            grid={grid}
            overview={data}
            onSent={(lines) =>
              setSaid(`Update sent for ${grid.college}: ${lines.join('; ') || 'saved'}.`)
            }
          />
        ))}
      </ul>
      {data.updates.length > 0 ? (
        <>
          <h3 className={styles.subTitle}>Updates you sent</h3>
          <ol className={styles.updates}>
            {[...data.updates].reverse().map((update) => (
              <li key={`${update.key}-${update.created_at}`}>
                <p className={styles.updateHead}>
                  Updated{' '}
                  <time dateTime={update.created_at}>{formatMoment(update.created_at)}</time>
                  {data.grids.length > 1 ? ` (${collegeOf.get(update.key) ?? update.key})` : ''}:
                </p>
                <ul className={styles.lines}>
                  {update.lines.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}

function Totals({ overview }: { overview: CourseworkOverview }) {
  const totals = overview.totals;
  if (!totals) return null;
  return (
    <dl className={styles.totals} aria-label="Transfer GPA and units now">
      <div>
        <dt>Transfer GPA</dt>
        <dd>{totals.gpa ?? '—'}</dd>
      </div>
      <div>
        <dt>Transferable units</dt>
        <dd>{units(totals.transferableUnits)}</dd>
      </div>
      <div>
        <dt>Units in progress</dt>
        <dd>{units(totals.inProgressUnits)}</dd>
      </div>
    </dl>
  );
}

function CollegeCoursework({
  grid,
  overview,
  onSent,
}: {
  grid: CourseworkGridView;
  overview: CourseworkOverview;
  onSent: (lines: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const editorId = useId();
  const close = () => {
    setOpen(false);
    // The editor's controls are gone: the focus goes back to the button that opened it.
    requestAnimationFrame(() => opener.current?.focus());
  };
  return (
    <li className={styles.college}>
      <div className={styles.collegeHead}>
        <h3 className={styles.collegeName}>{grid.college}</h3>
        <Button
          ref={opener}
          type="button"
          variant="secondary"
          aria-expanded={open}
          aria-controls={open ? editorId : undefined}
          onClick={() => (open ? close() : setOpen(true))}
        >
          {open ? 'Close' : 'Add grades or terms'}
          <span className="visually-hidden"> for {grid.college}</span>
        </Button>
      </div>
      {open ? (
        <div id={editorId} data-coursework-editor>
          <Suspense fallback={<p className={statusStyles.note}>Loading your courses...</p>}>
            <CourseworkUpdateEditor
              grid={grid}
              overview={overview}
              onCancel={close}
              onSent={(lines) => {
                onSent(lines);
                close();
              }}
            />
          </Suspense>
        </div>
      ) : null}
    </li>
  );
}
