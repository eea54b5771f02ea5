import { Link } from 'react-router';
import { actorName } from '../../../shared/staff/actor-names';
import type { AuditEventView } from '../../../shared/staff/staff-api';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { actionLabel, coveredText, detailText } from './audit-filters';

export function AuditTable({ events }: { events: AuditEventView[] }) {
  return (
    <div className={styles.tableFrame}>
      <table className={styles.table}>
        <caption className="visually-hidden">Audit entries, newest first</caption>
        <colgroup>
          <col className={styles.colTime} />
          <col className={styles.colWho} />
          <col className={styles.colAction} />
          <col className={styles.colApplication} />
          <col className={styles.colAddress} />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Application</th>
            <th scope="col">Address</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.seq}>
              <td>
                <time dateTime={event.at}>{formatDateTime(event.at)}</time>
              </td>
              <td>{actorName(event.actor_type, event.actor_label)}</td>
              <td>{actionLabel(event.action)}</td>
              <td>
                <ApplicationCell event={event} />
              </td>
              <td>{event.ip ?? <span className={styles.muted}>None</span>}</td>
              <td>
                <Details detail={event.detail} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The applicant by name (the id when the application has none or is gone), linking to the
 * entries of that application; for a search, an export or a batch, how many it covered.
 */
function ApplicationCell({ event }: { event: AuditEventView }) {
  const id = event.application_id;
  if (id) {
    const name = event.application_name ?? null;
    return (
      <Link
        to={`?application=${encodeURIComponent(id)}`}
        aria-label={`Entries of the application of ${name ?? id}`}
        title={name ? id : undefined}
      >
        {name ?? id}
      </Link>
    );
  }
  const covered = coveredText(event.action, event.detail);
  return covered ?? <span className={styles.muted}>None</span>;
}

function Details({ detail }: { detail: Record<string, unknown> }) {
  const entries = Object.entries(detail ?? {});
  if (entries.length === 0) return <span className={styles.muted}>None</span>;
  return (
    <dl className={styles.details}>
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key.replace(/_/g, ' ')}:</dt> <dd>{detailText(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
