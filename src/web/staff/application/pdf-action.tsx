import { Button } from '../../ui/button';
import { FormAlert } from '../shell/staff-form';
import styles from './application-page.module.css';
import { SHORTCUT_KEYS } from './shortcut-keys';
import type { PdfDownload } from './use-pdf-download';

export function PdfAction({ pdf, shortcut }: { pdf: PdfDownload; shortcut: boolean }) {
  return (
    <div className={styles.pdf}>
      <Button
        type="button"
        variant="primary"
        aria-keyshortcuts={shortcut ? SHORTCUT_KEYS.pdf : undefined}
        aria-disabled={pdf.pending || undefined}
        onClick={pdf.start}
      >
        {pdf.pending ? 'Preparing the PDF...' : 'Download application PDF'}
      </Button>
      <p role="status" className={styles.pdfStatus}>
        {pdf.message?.kind === 'status' ? pdf.message.text : ''}
      </p>
      <FormAlert message={pdf.message?.kind === 'error' ? pdf.message.text : null} />
    </div>
  );
}
