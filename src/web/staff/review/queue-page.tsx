import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type QueueItem, ROUND_LABELS } from '../../../shared/review/review-api';
import { useTenantConfig } from '../../data/tenant';
import { buttonClassName } from '../../ui/button';
import { cx } from '../../ui/cx';
import { LoadingIndicator } from '../../ui/loading-indicator';
import { applicationPath } from '../common/application-paths';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime, PageHeading } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { STAFF_QUEUE_ROUTE } from '../shell/staff-session';
import { type QueueStatus, queueQuery } from './review-calls';
import { QUEUE_SEARCH, STATUS_TEXT } from './review-logic';
import styles from './review-panel.module.css';

function statusOf(search: URLSearchParams): QueueStatus {
  return search.get('status') === 'submitted' ? 'submitted' : 'open';
}

/** The reads given to the signed-in member: the open ones to do, oldest first, and those done. */
function QueuePage() {
  const [search] = useSearchParams();
  const status = statusOf(search);
  const queue = useQuery(queueQuery(status));
  const tenant = useTenantConfig();
  const openCount = queue.data?.open_count;

  useEffect(() => {
    document.title = `My queue | ${tenant.partner_name}`;
  }, [tenant.partner_name]);

  return (
    <>
      <PageHeading
        title={
          openCount === undefined ? 'My queue' : `My queue (${openCount.toLocaleString('en-US')})`
        }
      />
      <nav aria-label="Reads" className={styles.tabs}>
        <Link
          to={STAFF_QUEUE_ROUTE}
          aria-current={status === 'open' ? 'page' : undefined}
          className={cx(buttonClassName('secondary'), styles.tab)}
        >
          Open{openCount === undefined ? '' : ` (${openCount.toLocaleString('en-US')})`}
        </Link>
        <Link
          to={`${STAFF_QUEUE_ROUTE}?status=submitted`}
          aria-current={status === 'submitted' ? 'page' : undefined}
          className={cx(buttonClassName('secondary'), styles.tab)}
        >
          Submitted
          {queue.data ? ` (${queue.data.submitted_count.toLocaleString('en-US')})` : ''}
        </Link>
      </nav>
      {queue.isPending ? (
        <p role="status" className={consoleStyles.muted}>
          <LoadingIndicator type="circles" size="xs" /> Loading your reads...
        </p>
      ) : queue.isError ? (
        <FormAlert message={serverMessage(queue.error)} />
      ) : (
        <QueueTable items={queue.data.items} status={status} />
      )}
    </>
  );
}

export function QueueTable({
  items,
  status,
}: {
  items: readonly QueueItem[];
  status: QueueStatus;
}) {
  if (items.length === 0) {
    return (
      <p>{status === 'open' ? 'You have no reads to do.' : 'You have not submitted a read yet.'}</p>
    );
  }
  return (
    <div className={consoleStyles.tableFrame}>
      <table className={consoleStyles.table}>
        <caption className="visually-hidden">
          {status === 'open' ? 'Open reads, oldest first' : 'Submitted reads, newest first'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Applicant</th>
            <th scope="col">Program</th>
            <th scope="col">Term</th>
            <th scope="col">Round</th>
            <th scope="col">Status</th>
            <th scope="col">Assigned</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.read_id}>
              <th scope="row">
                <Link
                  to={applicationPath(item.application_id, status === 'open' ? QUEUE_SEARCH : '')}
                >
                  {item.applicant_name}
                </Link>
              </th>
              <td>{item.program ?? '—'}</td>
              <td>{item.entry_term ?? '—'}</td>
              <td>{ROUND_LABELS[item.round]}</td>
              <td>{STATUS_TEXT[item.status]}</td>
              <td>
                <time dateTime={item.assigned_at}>{formatDateTime(item.assigned_at)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export { QueuePage as Component };
