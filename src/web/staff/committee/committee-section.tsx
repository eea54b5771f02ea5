import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import {
  type CommitteeView,
  type ReadStatus,
  ROUND_LABELS,
} from '../../../shared/review/review-api';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { meQueryOptions } from '../shell/staff-calls';
import { FormAlert, serverMessage } from '../shell/staff-form';
import committee from './committee.module.css';
import { committeeCalls, committeeKeys } from './committee-calls';
import {
  answerText,
  gapNote,
  otherFields,
  pointOf,
  recommendationListHref,
  scoreText,
  spreadText,
} from './committee-logic';
import { ReassignReadForm } from './reassign-read-form';

const STATUS_LABELS: Record<ReadStatus, string> = {
  assigned: 'Assigned',
  draft: 'Draft',
  submitted: 'Submitted',
};

/**
 * Every read of an application for the committee. Shown only to a role with
 * `reviews.committee`; the server refuses the call to anyone else anyway.
 */
export function CommitteeSection({ applicationId }: { applicationId: string }) {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  const allowed = me?.permissions.includes('reviews.committee') ?? false;
  const canAssign = me?.permissions.includes('reviews.assign') ?? false;
  const view = useQuery({
    queryKey: committeeKeys.committee(applicationId),
    queryFn: () => committeeCalls.committee(applicationId),
    enabled: allowed,
    // Reads are submitted by others all day: asked afresh each time the application is shown.
    refetchOnMount: 'always',
  });
  const [showBands, setShowBands] = useState(false);
  const titleId = useId();
  if (!allowed) return null;
  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        Committee: every read
      </h2>
      {view.isPending ? (
        <p className={styles.muted}>Loading the reads...</p>
      ) : view.isError ? (
        <FormAlert message={serverMessage(view.error)} />
      ) : (
        <>
          <CommitteeReport view={view.data} showBands={showBands} onShowBands={setShowBands} />
          {canAssign ? (
            <ReassignReadForm applicationId={applicationId} reads={view.data.reads} />
          ) : null}
        </>
      )}
    </section>
  );
}

/** The reads, the criteria's spread and the tally; with bands, scores are shown as bands. */
export function CommitteeReport({
  view,
  showBands,
  onShowBands,
}: {
  view: CommitteeView;
  showBands: boolean;
  onShowBands: (show: boolean) => void;
}) {
  const bandsId = useId();
  const bands = showBands ? view.bands : null;
  const others = otherFields(view.form.items);
  const labels = new Map(view.recommendations.map((entry) => [entry.code, entry.label]));
  const note = gapNote(view);

  if (view.reads.length === 0)
    return <p className={styles.muted}>No reads of this application yet.</p>;

  return (
    <>
      {view.bands ? (
        <p className={styles.checkbox}>
          <input
            id={bandsId}
            type="checkbox"
            checked={showBands}
            onChange={(event) => onShowBands(event.target.checked)}
          />
          <label htmlFor={bandsId}>Show score bands</label>
        </p>
      ) : null}
      {note ? (
        <p className={`${styles.notice} ${committee.gapNote}`} role="note">
          {note}
        </p>
      ) : null}
      {/* The table may be wider than its column: the frame scrolls, so the keyboard can too. */}
      <section
        className={`${styles.tableFrame} ${committee.scroll}`}
        aria-label="Every read"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a frame that scrolls takes the focus so arrow keys scroll it
        tabIndex={0}
      >
        <table className={`${styles.table} ${committee.reads}`}>
          <caption className="visually-hidden">
            Every read of this application{bands ? ', scores shown as bands' : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Reader</th>
              <th scope="col">Round</th>
              <th scope="col">Status</th>
              <th scope="col">Score</th>
              <th scope="col">Recommendation</th>
              <th scope="col">Submitted</th>
              {view.criteria.map((criterion) => (
                <th scope="col" key={criterion.key}>
                  {criterion.label}
                </th>
              ))}
              {others.map((field) => (
                <th scope="col" key={field.key}>
                  {field.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {view.reads.map((read) => (
              <tr key={read.id}>
                <th scope="row" className={committee.reader}>
                  {read.reader_name ?? <span className={styles.muted}>No reader</span>}
                </th>
                <td>{ROUND_LABELS[read.round]}</td>
                <td>{STATUS_LABELS[read.status]}</td>
                <td>{scoreText(read.score, bands)}</td>
                <td>
                  {read.recommendation
                    ? (labels.get(read.recommendation) ?? read.recommendation)
                    : ''}
                </td>
                <td>
                  {read.submitted_at ? (
                    <time dateTime={read.submitted_at}>{formatDateTime(read.submitted_at)}</time>
                  ) : null}
                </td>
                {view.criteria.map((criterion) => (
                  <td key={criterion.key}>{scoreText(pointOf(read, criterion.key), bands)}</td>
                ))}
                {others.map((field) => (
                  <td key={field.key} className={committee.text}>
                    {answerText(field, read.answers[field.key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <h3 className={styles.subTitle}>Each criterion</h3>
      <dl className={committee.spreads}>
        {view.criteria.map((criterion) => (
          <div key={criterion.key}>
            <dt>{criterion.label}</dt>
            <dd>
              {spreadText(criterion, bands)}
              {criterion.count > 0 ? (
                <span className={styles.muted}>
                  {' '}
                  ({criterion.count} read{criterion.count === 1 ? '' : 's'})
                </span>
              ) : null}
            </dd>
          </div>
        ))}
        <div>
          <dt>Mean score</dt>
          <dd>{view.mean_score === null ? 'No scores yet' : scoreText(view.mean_score, bands)}</dd>
        </div>
      </dl>
      <h3 className={styles.subTitle}>Recommendations</h3>
      {view.recommendations.length === 0 ? (
        <p className={styles.muted}>No recommendation yet.</p>
      ) : (
        <ul className={committee.tally}>
          {view.recommendations.map((entry) => (
            <li key={entry.code}>
              <span>
                {entry.label}: {entry.count} read{entry.count === 1 ? '' : 's'}
              </span>{' '}
              <Link to={recommendationListHref(entry.code)}>
                Decide for this list by recommendation: {entry.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
