import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { CREDIT_ESTIMATE_PDF_URL, ESTIMATE_NOTICE } from '../../shared/credit/credit-api';
import {
  REQUIREMENT_STATUS_LABELS,
  type RequirementResult,
} from '../../shared/credit/credit-requirements';
import {
  creditEstimateQueryOptions,
  creditRequirementsQueryOptions,
} from '../data/credit-estimate';
import styles from './credit-estimate-section.module.css';
import { formatMoment } from './format-time';
import statusStyles from './status-page.module.css';

/** `13.00` as a transcript prints it: `13`. */
const units = (text: string) => String(Number(text));

/**
 * Transfer credit on the status page: the estimate once an evaluator released it (nothing
 * before), and the requirements the office shows applicants, computed from what the applicant
 * entered, which are not an evaluation.
 */
export function CreditEstimateSection() {
  return (
    <>
      <ReleasedEstimateSection />
      <RequirementsSection />
    </>
  );
}

function ReleasedEstimateSection() {
  const headingId = useId();
  const { data: estimate } = useQuery(creditEstimateQueryOptions);
  if (!estimate) return null;
  const { totals, requirements } = estimate.evaluation;
  const met = requirements.filter((entry) => entry.show_to_applicant && entry.status === 'met');
  const pending = Number(totals.pending_credit_units);

  return (
    <section aria-labelledby={headingId} className={statusStyles.section} data-credit-estimate>
      <h2 id={headingId} className={statusStyles.sectionTitle}>
        Transfer credit estimate
      </h2>
      <p className={styles.notice}>{ESTIMATE_NOTICE}</p>
      <p className={statusStyles.summary}>
        The admissions office estimated how your college courses would transfer. The credit you
        receive is decided when your official transcripts are evaluated.
      </p>
      <dl className={styles.facts}>
        <dt>Estimated credit</dt>
        <dd>
          {units(totals.credit_units)} units
          {pending > 0
            ? `, and ${units(totals.pending_credit_units)} more when your courses in progress are completed`
            : ''}
        </dd>
        <dt>Requirements met in this estimate</dt>
        <dd>
          {met.length === 0 ? (
            'None yet'
          ) : (
            <ul className={styles.met}>
              {met.map((entry) => (
                <li key={entry.id}>{entry.label}</li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Released</dt>
        <dd>
          <time dateTime={estimate.released_at}>{formatMoment(estimate.released_at)}</time>
        </dd>
      </dl>
      <p className={styles.download}>
        <a href={CREDIT_ESTIMATE_PDF_URL}>Open your credit estimate (PDF)</a>
      </p>
    </section>
  );
}

function RequirementsSection() {
  const headingId = useId();
  const { data } = useQuery(creditRequirementsQueryOptions);
  const requirements = data?.requirements ?? [];
  if (requirements.length === 0) return null;

  return (
    <section aria-labelledby={headingId} className={statusStyles.section} data-credit-requirements>
      <h2 id={headingId} className={statusStyles.sectionTitle}>
        Transfer requirements
      </h2>
      <p className={statusStyles.summary}>
        Computed from the coursework you entered. This is not an evaluation of your transcripts.
      </p>
      <ul className={styles.requirements}>
        {requirements.map((entry) => (
          <Requirement key={entry.id} requirement={entry} />
        ))}
      </ul>
    </section>
  );
}

function Requirement({ requirement }: { requirement: RequirementResult }) {
  return (
    <li className={styles.requirement} data-status={requirement.status}>
      <div className={styles.head}>
        <span className={styles.label}>{requirement.label}</span>
        <span className={styles.status}>{REQUIREMENT_STATUS_LABELS[requirement.status]}</span>
      </div>
      {requirement.reason ? <p className={styles.reason}>{requirement.reason}</p> : null}
    </li>
  );
}
