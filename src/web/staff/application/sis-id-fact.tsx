import type { ApplicationDetail } from '../../../shared/staff/application-api';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import styles from './application-page.module.css';

/**
 * The student information system's id, beside the receipt: staff quote it to the registrar, and
 * who wrote it back tells them which integration to ask when it looks wrong.
 */
export function SisIdFact({ sisId }: { sisId: ApplicationDetail['sis_id'] }) {
  return (
    <div>
      <dt>SIS ID</dt>
      <dd>
        {sisId ? (
          <>
            {sisId.value}
            <span className={styles.verifyResult}>
              Set by {sisId.set_by},{' '}
              <time dateTime={sisId.set_at}>{formatDateTime(sisId.set_at)}</time>
            </span>
          </>
        ) : (
          <span className={consoleStyles.muted}>Not written back yet</span>
        )}
      </dd>
    </div>
  );
}
