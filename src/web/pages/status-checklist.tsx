import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import type { StatusItem } from '../../shared/api/status';
import { ServerError } from '../data/http-client';
import { applicantStatusQueryOptions } from '../data/status';
import styles from './status-page.module.css';

/** The form's upload code, loaded only for an item the applicant can still upload. */
const LateUpload = lazy(async () => {
  const [form, files, { lateUploadOf }] = await Promise.all([
    import('../form/form-page'),
    import('../form/file-question'),
    import('./late-upload'),
  ]);
  return { default: lateUploadOf(form, files) };
});

export const STATE_LABELS: Record<StatusItem['state'], string> = {
  awaiting: 'Awaiting',
  received: 'Received',
  waived: 'Waived',
};

/** What changed since the last read, said once by the live region (never on the first read). */
export function stateChanges(
  before: ReadonlyMap<string, StatusItem['state']> | null,
  items: readonly StatusItem[],
): string {
  if (!before) return '';
  return items
    .filter((item) => before.has(item.key) && before.get(item.key) !== item.state)
    .map((item) => `${item.label}: ${STATE_LABELS[item.state]}.`)
    .join(' ');
}

/**
 * The checklist as the office keeps it, with what the applicant can do about each missing item.
 * It is read again every 30 seconds and when the window regains focus, so a staff mark shows up
 * while the page is open; changes are announced.
 */
export function StatusChecklist() {
  const headingId = useId();
  const { data, error } = useQuery(applicantStatusQueryOptions);
  const known = useRef<Map<string, StatusItem['state']> | null>(null);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (!data) return;
    const changes = stateChanges(known.current, data.items);
    if (changes) setAnnouncement(changes);
    known.current = new Map(data.items.map((item) => [item.key, item.state]));
  }, [data]);

  const failure =
    error && !data
      ? error instanceof ServerError
        ? error.message
        : GENERIC_SERVER_ERROR_MESSAGE
      : null;

  return (
    <section aria-labelledby={headingId} className={styles.section}>
      <h2 id={headingId} className={styles.sectionTitle}>
        What we still need
      </h2>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {failure ? (
        <p role="alert" className={styles.alert}>
          {failure}
        </p>
      ) : null}
      {!data && !failure ? <p className={styles.note}>Loading your checklist...</p> : null}
      {data ? (
        <>
          <p className={styles.summary}>
            {data.missing === 0
              ? 'We have everything we need to review your application.'
              : `${data.missing} ${data.missing === 1 ? 'item is' : 'items are'} still missing.`}
          </p>
          <ul className={styles.checklist}>
            {data.items.map((item) => (
              <ChecklistRow key={item.key} item={item} />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function ChecklistRow({ item }: { item: StatusItem }) {
  const queryClient = useQueryClient();
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: applicantStatusQueryOptions.queryKey }),
    [queryClient],
  );
  return (
    <li className={styles.item} data-state={item.state} data-key={item.key}>
      <div className={styles.itemHead}>
        <span className={styles.itemLabel}>{item.label}</span>
        <span className={styles.state}>
          <StateIcon state={item.state} />
          {STATE_LABELS[item.state]}
        </span>
      </div>
      {item.state === 'awaiting' && item.how ? <p className={styles.how}>{item.how}</p> : null}
      {item.upload_answer_key ? (
        <Suspense fallback={<p className={styles.note}>Loading the upload...</p>}>
          <LateUpload answerKey={item.upload_answer_key} label={item.label} onConverted={refresh} />
        </Suspense>
      ) : null}
    </li>
  );
}

/** The state is always written out; the icon only repeats it. */
function StateIcon({ state }: { state: StatusItem['state'] }) {
  const path =
    state === 'received'
      ? 'M5 12.5l4.5 4.5L19 7.5'
      : state === 'waived'
        ? 'M6 12h12'
        : 'M12 7v5l3 2M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z';
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.25"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}
