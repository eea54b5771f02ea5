import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { REQUIREMENT_STATUS_LABELS } from '../../../shared/credit/credit-requirements';
import { ServerError } from '../../data/http-client';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { serverMessage } from '../shell/staff-form';
import { creditEvaluationQuery } from './credit-calls';
import styles from './credit-page.module.css';
import { creditPagePath, mappedText } from './credit-text';

/**
 * Transfer credit on the application's page: how much is mapped, what needs review, the
 * requirements and the estimate, with the way to the evaluator's screen. Reading the evaluation
 * is recorded (credit.view), so it is asked for only for a submitted application, whose page
 * shows this; an application the server says is not submitted (409) shows nothing.
 */
export function CreditSummarySection({
  id,
  submitted,
  className,
  titleClassName,
}: {
  id: string;
  submitted: boolean;
  className?: string;
  titleClassName?: string;
}) {
  const evaluation = useQuery({ ...creditEvaluationQuery(id), enabled: submitted });
  if (!submitted) return null;
  if (
    evaluation.isError &&
    evaluation.error instanceof ServerError &&
    evaluation.error.status === 409
  )
    return null;
  const view = evaluation.data;
  return (
    <section aria-labelledby="credit-summary-title" className={className}>
      <h2 id="credit-summary-title" className={titleClassName}>
        Transfer credit
      </h2>
      {evaluation.isPending ? (
        <p role="status" className={consoleStyles.muted}>
          Loading the transfer credit...
        </p>
      ) : null}
      {evaluation.isError ? <p role="alert">{serverMessage(evaluation.error)}</p> : null}
      {view ? (
        <>
          <dl className={styles.summaryFacts}>
            <div>
              <dt>Mapped</dt>
              <dd>{mappedText(view.summary)}</dd>
            </div>
            <div>
              <dt>Needs review</dt>
              <dd>{view.summary.needs_review}</dd>
            </div>
            <div>
              <dt>Transfer GPA</dt>
              <dd>{view.totals.transfer_gpa ?? 'None yet'}</dd>
            </div>
            {view.requirements.map((requirement) => (
              <div key={requirement.id}>
                <dt>{requirement.label}</dt>
                <dd>{REQUIREMENT_STATUS_LABELS[requirement.status]}</dd>
              </div>
            ))}
            <div>
              <dt>Estimate</dt>
              <dd>
                {view.estimate
                  ? `Released on ${formatDateTime(view.estimate.released_at)}`
                  : 'Not released'}
              </dd>
            </div>
          </dl>
          <p>
            <Link to={creditPagePath(id)}>Evaluate transfer credit</Link>
          </p>
        </>
      ) : null}
    </section>
  );
}
