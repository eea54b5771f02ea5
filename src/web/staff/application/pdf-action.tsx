import buttonStyles from '../../ui/button.module.css';
import { cx } from '../../ui/cx';
import { FormAlert } from '../shell/staff-form';
import styles from './application-page.module.css';
import { SHORTCUT_KEYS } from './shortcut-keys';
import type { PdfDownload } from './use-pdf-download';

export function PdfAction({ pdf, shortcut }: { pdf: PdfDownload; shortcut: boolean }) {
  return (
    <div className={styles.pdf}>
      <button
        type="button"
        className={cx(buttonStyles.button, buttonStyles.primary)}
        aria-keyshortcuts={shortcut ? SHORTCUT_KEYS.pdf : undefined}
        aria-disabled={pdf.pending || undefined}
        onClick={pdf.start}
      >
        {pdf.pending ? 'Preparing the PDF...' : 'Download application PDF'}
      </button>
      <p role="status" className={styles.pdfStatus}>
        {pdf.message?.kind === 'status' ? pdf.message.text : ''}
      </p>
      <FormAlert message={pdf.message?.kind === 'error' ? pdf.message.text : null} />
    </div>
  );
}
