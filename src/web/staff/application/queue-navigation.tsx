import { Link } from 'react-router';
import type { ApplicationNeighbours } from '../../../shared/staff/application-api';
import { buttonClassName } from '../../ui/button';
import { cx } from '../../ui/cx';
import { applicationPath } from '../common/application-paths';
import { STAFF_QUEUE_ROUTE } from '../shell/staff-session';
import { listPath, positionText, withListPage } from './application-logic';
import styles from './application-page.module.css';
import { SHORTCUT_KEYS } from './shortcut-keys';

/** Back to the list, and previous / next through it, with the reader's place in it. */
export function QueueNavigation({
  neighbours,
  failed,
  listQuery,
  status,
  shortcuts,
  fromQueue = false,
}: {
  neighbours: ApplicationNeighbours | undefined;
  failed: boolean;
  listQuery: string;
  status: string;
  /** Whether the keys work, so the links name them only then. */
  shortcuts: boolean;
  /** Opened from the reader's queue: back goes to the queue, and the steps move through it. */
  fromQueue?: boolean;
}) {
  const place = neighbours ? positionText(neighbours.position, neighbours.total) : '';
  const step = (action: 'previous' | 'next', label: string) => {
    const target = neighbours?.[action] ?? null;
    const page = action === 'next' ? neighbours?.next_page : neighbours?.previous_page;
    if (!target) {
      // The end of the list: shown in its place so the controls do not move, but not a link.
      return (
        <span className={cx(styles.step, styles.stepDisabled)}>
          {label}
          <span className="visually-hidden">
            {action === 'next' ? ' (none: this is the last)' : ' (none: this is the first)'}
          </span>
        </span>
      );
    }
    return (
      <Link
        to={applicationPath(target, withListPage(listQuery, page ?? null))}
        className={cx(buttonClassName('secondary'), styles.step)}
        aria-keyshortcuts={shortcuts ? SHORTCUT_KEYS[action] : undefined}
        rel={action === 'next' ? 'next' : 'prev'}
      >
        {label}
      </Link>
    );
  };
  return (
    <nav
      aria-label={fromQueue ? 'Applications in your queue' : 'Applications in the list'}
      className={styles.queue}
    >
      <Link to={fromQueue ? STAFF_QUEUE_ROUTE : listPath(listQuery)} className={styles.back}>
        {fromQueue ? 'Back to my queue' : 'Back to the list'}
      </Link>
      <div className={styles.steps}>
        {step('previous', 'Previous')}
        <span className={styles.place}>
          {place ? (
            <>
              <span className="visually-hidden">Application </span>
              {place}
            </>
          ) : failed ? (
            'Place in the list unknown'
          ) : neighbours ? (
            fromQueue ? (
              'Not in your queue'
            ) : (
              'Not in the list'
            )
          ) : null}
        </span>
        {step('next', 'Next')}
      </div>
      <p role="status" className={styles.queueStatus}>
        {status}
      </p>
    </nav>
  );
}
