import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { receiptQueryOptions } from '../data/status';
import { formatMoment } from './format-time';
import styles from './status-page.module.css';

/**
 * The confirmation number, large and in groups, because applicants read it aloud on the phone;
 * the fingerprint is for anyone who later needs to show what was submitted.
 */
export function ReceiptSection() {
  const headingId = useId();
  const { data, isError } = useQuery(receiptQueryOptions);
  if (isError || data === null) return null;
  return (
    <section aria-labelledby={headingId} className={styles.section}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Your receipt
      </h2>
      {data ? (
        <dl className={styles.receipt}>
          <dt>Confirmation number</dt>
          <dd className={styles.confirmation} data-testid="confirmation-number">
            {data.number}
          </dd>
          <dt>Submitted</dt>
          <dd>
            <time dateTime={data.submitted_at}>{formatMoment(data.submitted_at)}</time>
          </dd>
          <dt>Fingerprint</dt>
          <dd>
            <code className={styles.fingerprint}>{data.fingerprint}</code>
            <p className={styles.note}>
              A code computed from your answers and documents as you submitted them; it changes if
              anything in them changes.
            </p>
          </dd>
        </dl>
      ) : (
        <p className={styles.note}>Loading your receipt...</p>
      )}
    </section>
  );
}
