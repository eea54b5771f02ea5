import { type QueryClient, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useRef } from 'react';
import { SUBMITTED_MESSAGE } from '../../shared/api/application-messages';
import { isApplicationPdfPending } from '../../shared/api/application-pdf';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { applicationPdfQueryOptions } from '../data/application-pdf';
import { ServerError } from '../data/http-client';
import { decisionQueryOptions } from '../data/status';
import { buttonClassName } from '../ui/button';
import { cx } from '../ui/cx';
import { LoadingIndicator } from '../ui/loading-indicator';
import { useHeadingFocus } from '../ui/use-heading-focus';
import styles from './completion-page.module.css';
import { CourseworkUpdatesSection } from './coursework-updates-section';
import { CreditEstimateSection } from './credit-estimate-section';
import { ReceiptSection } from './receipt-section';
import { StatusChecklist } from './status-checklist';

/** Shown once a decision is released, which most visits never see. */
const DecisionSection = lazy(() =>
  import('./decision-section').then((module) => ({ default: module.DecisionSection })),
);

/**
 * Before the page renders: a released decision leads it and gives it its heading, which must not
 * change under a screen reader once shown. A failed read shows the page without it; the page's
 * query reads again on its interval. The decision's code is fetched with it.
 */
export async function loadDecision(queryClient: QueryClient): Promise<void> {
  const decision = await queryClient.fetchQuery(decisionQueryOptions).catch(() => null);
  if (decision) await import('./decision-section');
}

export function CompletionPage() {
  const heading = useRef<HTMLHeadingElement>(null);
  const decisionHeadingId = useId();
  const submittedHeadingId = useId();
  useHeadingFocus(heading);
  // The loader has just read it: no second read on mount.
  const { data: decision } = useQuery({ ...decisionQueryOptions, refetchOnMount: false });

  if (!decision) {
    return (
      <div className={styles.card}>
        <h1 ref={heading} tabIndex={-1} className={styles.title}>
          Application Submitted
        </h1>
        <p className={styles.message}>{SUBMITTED_MESSAGE}</p>
        <ReceiptSection />
        <StatusChecklist />
        <CourseworkUpdatesSection />
        <CreditEstimateSection />
        <ApplicationPdfDownload />
      </div>
    );
  }
  // Once released, the decision is what the applicant came for: it comes first, and the
  // submission it answers follows as a section of its own.
  return (
    <div className={styles.card}>
      <section aria-labelledby={decisionHeadingId} className={styles.decision}>
        <h1 ref={heading} id={decisionHeadingId} tabIndex={-1} className={styles.title}>
          Decision on your application
        </h1>
        <Suspense fallback={<LoadingIndicator type="spinner" size="s" />}>
          <DecisionSection decision={decision} />
        </Suspense>
      </section>
      <section aria-labelledby={submittedHeadingId} className={styles.submitted}>
        <h2 id={submittedHeadingId} className={styles.submittedTitle}>
          Application Submitted
        </h2>
        <p className={styles.message}>{SUBMITTED_MESSAGE}</p>
      </section>
      <ReceiptSection />
      <StatusChecklist />
      <CourseworkUpdatesSection />
      <CreditEstimateSection />
      <ApplicationPdfDownload />
    </div>
  );
}

/**
 * The whole application as one PDF, made on the server after submit. The status is polled
 * (spec 000 section 4); the download is a plain link, so the browser saves the server's file.
 */
function ApplicationPdfDownload() {
  const headingId = useId();
  const { data, error } = useQuery(applicationPdfQueryOptions);
  const pending = !data || isApplicationPdfPending(data.status);
  const completed = data?.status === 'COMPLETED' && data.url ? data.url : null;
  const failure =
    data?.status === 'FAILED'
      ? (data.message ?? GENERIC_SERVER_ERROR_MESSAGE)
      : error && !data
        ? error instanceof ServerError
          ? error.message
          : GENERIC_SERVER_ERROR_MESSAGE
        : null;

  return (
    <section aria-labelledby={headingId} className={styles.pdf}>
      <h2 id={headingId} className={styles.pdfTitle}>
        Your application as a PDF
      </h2>
      {/* Always present, so screen readers hear the change from preparing to ready. */}
      <div role="status" className={styles.status}>
        {pending && !failure ? (
          <p className={styles.preparing}>
            <LoadingIndicator type="spinner" size="s" />
            Preparing a PDF of your application...
          </p>
        ) : null}
        {completed ? (
          <p>Your answers and the documents you attached, in one file to keep.</p>
        ) : null}
      </div>
      {completed ? (
        <a href={completed} download className={cx(buttonClassName('primary'), styles.download)}>
          Download your application (PDF)
        </a>
      ) : null}
      {failure ? (
        <p role="alert" className={styles.alert}>
          {failure}
        </p>
      ) : null}
    </section>
  );
}

export { CompletionPage as Component };
