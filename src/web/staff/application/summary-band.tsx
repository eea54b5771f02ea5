import styles from './application-page.module.css';
import { collegeText, type ReadingSummary } from './reading-summary';

/** What a reader wants before the answers, in a line or two: program, term, credit, checklist. */
export function SummaryBand({ summary }: { summary: ReadingSummary }) {
  return (
    <section aria-labelledby="summary-title" className={styles.summary}>
      <h2 id="summary-title" className="visually-hidden">
        Summary
      </h2>
      <dl className={styles.summaryList}>
        <div>
          <dt>Program</dt>
          <dd>{summary.program ?? 'Not answered'}</dd>
        </div>
        <div>
          <dt>Entry term</dt>
          <dd>{summary.entryTerm ?? 'Not answered'}</dd>
        </div>
        {summary.colleges.length > 0 ? (
          <div>
            <dt>{summary.colleges.length === 1 ? 'College' : 'Colleges'}</dt>
            {summary.colleges.map((college, index) => (
              // Two entries may name the same college: their place tells them apart.
              // biome-ignore lint/suspicious/noArrayIndexKey: the entries' order is fixed
              <dd key={index}>{collegeText(college)}</dd>
            ))}
          </div>
        ) : null}
        <div>
          <dt>Checklist</dt>
          <dd>{summary.checklist}</dd>
        </div>
        {summary.missing.length > 0 ? (
          <div>
            <dt>Awaiting</dt>
            {summary.missing.map((label) => (
              <dd key={label}>{label}</dd>
            ))}
          </div>
        ) : null}
        <div>
          <dt>Documents</dt>
          <dd>{summary.documents}</dd>
        </div>
      </dl>
    </section>
  );
}
