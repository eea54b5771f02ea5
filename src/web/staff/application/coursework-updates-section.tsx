import type { StaffCoursework } from '../../../shared/coursework/coursework-update-api';
import { cx } from '../../ui/cx';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import styles from './application-page.module.css';
import { courseworkUpdateHeading } from './coursework-updates';
import own from './coursework-updates-section.module.css';

/**
 * Coursework the applicant added after submit (a term's grades, a new term), oldest first. Every
 * update is new to the submission: the answers below show the coursework as it stands now, while
 * the submission and its receipt stay as they were.
 */
export function CourseworkUpdatesSection({
  updates,
}: {
  updates: StaffCoursework['coursework_updates'];
}) {
  if (updates.length === 0) return null;
  return (
    <section aria-labelledby="coursework-updates-title" className={cx(styles.panel, own.updates)}>
      <h2 id="coursework-updates-title" className={styles.panelTitle}>
        Coursework updated after submit
      </h2>
      <p className={consoleStyles.muted}>
        The answers below show the coursework with these updates. The submission and its receipt are
        unchanged.
      </p>
      <ol className={styles.entries} aria-label="Oldest first">
        {updates.map((update) => (
          <li key={`${update.answer_key} ${update.created_at}`} className={styles.entry}>
            <p className={own.heading}>
              <span className={cx(styles.badge, own.new)}>New</span>
              <span>{courseworkUpdateHeading(update)}</span>
            </p>
            <ul className={own.lines}>
              {update.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <span className={styles.entryMeta}>
              Updated <time dateTime={update.created_at}>{formatDateTime(update.created_at)}</time>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
