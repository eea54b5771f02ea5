import { useQuery } from '@tanstack/react-query';
import type { ApplicationHistoryEntry } from '../../../shared/staff/application-api';
import { cx } from '../../ui/cx';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { applicationHistoryQuery } from './application-calls';
import styles from './application-page.module.css';
import { type HistoryLabels, historyActionText } from './history-text';

export function HistorySection({ id, labels }: { id: string; labels: HistoryLabels }) {
  // Asked once the application has loaded, so the reading that opened the page is in it.
  const history = useQuery(applicationHistoryQuery(id));
  return (
    <section aria-labelledby="history-title" className={cx(styles.panel, styles.history)}>
      <h2 id="history-title" className={styles.panelTitle}>
        History
      </h2>
      {history.isPending ? (
        <p role="status" className={consoleStyles.muted}>
          Loading the history...
        </p>
      ) : history.isError ? (
        <FormAlert message={serverMessage(history.error)} />
      ) : history.data.length === 0 ? (
        <p>Nothing has been recorded yet.</p>
      ) : (
        <ol className={styles.entries} aria-label="Newest first">
          {history.data.map((entry) => (
            <HistoryRow key={entry.seq} entry={entry} labels={labels} />
          ))}
        </ol>
      )}
    </section>
  );
}

function HistoryRow({ entry, labels }: { entry: ApplicationHistoryEntry; labels: HistoryLabels }) {
  return (
    <li className={styles.entry}>
      <span className={styles.entryWhat}>
        {historyActionText(entry.action, entry.detail, labels)}
      </span>
      <span className={styles.entryMeta}>
        <span>{entry.actor}</span>
        {', '}
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </span>
    </li>
  );
}
