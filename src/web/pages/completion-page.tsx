import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useRef } from 'react';
import { SUBMITTED_MESSAGE } from '../../shared/api/application-messages';
import { isApplicationPdfPending } from '../../shared/api/application-pdf';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import { applicationPdfQueryOptions } from '../data/application-pdf';
import { ServerError } from '../data/http-client';
import { useHeadingFocus } from '../layout/use-heading-focus';
import buttonStyles from '../ui/button.module.css';
import { cx } from '../ui/cx';
import { LoadingIndicator } from '../ui/loading-indicator';
import styles from './completion-page.module.css';
import { ReceiptSection } from './receipt-section';
import { StatusChecklist } from './status-checklist';

/** Shown once a decision is released, which most visits never see. */
const DecisionSection = lazy(() =>
  import('./decision-section').then((module) => ({ default: module.DecisionSection })),
);

export function CompletionPage() {
  const heading = useRef<HTMLHeadingElement>(null);
  useHeadingFocus(heading);
  return (
    <div className={styles.card}>
      <h1 ref={heading} tabIndex={-1} className={styles.title}>
        Application Submitted
      </h1>
      <p className={styles.message}>{SUBMITTED_MESSAGE}</p>
      <ReceiptSection />
      <StatusChecklist />
      <ApplicationPdfDownload />
      <Suspense fallback={null}>
        <DecisionSection />
      </Suspense>
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
        <a
          href={completed}
          download
          className={cx(buttonStyles.button, buttonStyles.primary, styles.download)}
        >
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
