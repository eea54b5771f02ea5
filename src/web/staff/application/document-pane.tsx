import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { applicationUrls } from '../../../shared/staff/application-api';
import { ServerError } from '../../data/http-client';
import { Button } from '../../ui/button';
import { LoadingIndicator } from '../../ui/loading-indicator';
import { fetchFile } from '../shell/staff-calls';
import { serverMessage } from '../shell/staff-form';
import { applicationKeys } from './application-calls';
import styles from './application-page.module.css';
import { APPLICATION_PDF_CHOICE, type PaneDocument } from './pane-choice';
import { PDF_TRIES_MAX, pdfRetryWait } from './pdf-retry';

type PaneFile =
  | { kind: 'loading'; text: string }
  | { kind: 'ready'; url: string }
  | { kind: 'error'; text: string };

const LOADING_TEXT = 'Loading the PDF...';

/**
 * One PDF the server serves (and records as read), shown in the page through an object URL of
 * its bytes. While the application PDF is being made (503 with Retry-After) the pane says so and
 * asks again by itself, as the download does; `attempt` asks again after a failure.
 */
function usePaneFile(path: string, attempt: number, id: string): PaneFile {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<PaneFile>({ kind: 'loading', text: LOADING_TEXT });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt asks for the file again
  useEffect(() => {
    let alive = true;
    let objectUrl: string | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setFile({ kind: 'loading', text: LOADING_TEXT });
    const load = async (tries: number): Promise<void> => {
      try {
        const got = await fetchFile(path);
        if (!alive) return;
        const pdf =
          got.blob.type === 'application/pdf'
            ? got.blob
            : new Blob([got.blob], { type: 'application/pdf' });
        objectUrl = URL.createObjectURL(pdf);
        setFile({ kind: 'ready', url: objectUrl });
        // The reading is in the application's history now.
        void queryClient.invalidateQueries({ queryKey: applicationKeys.history(id) });
      } catch (error) {
        if (!alive) return;
        if (error instanceof ServerError && error.status === 503 && tries < PDF_TRIES_MAX) {
          setFile({
            kind: 'loading',
            text: `${error.message} It will show here by itself when it is ready.`,
          });
          timer = setTimeout(() => void load(tries + 1), pdfRetryWait(error.retryAfterMs));
          return;
        }
        setFile({ kind: 'error', text: serverMessage(error) });
      }
    };
    void load(1);
    return () => {
      alive = false;
      clearTimeout(timer);
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path, attempt, id, queryClient]);
  return file;
}

/**
 * The document pane beside the answers: the application PDF or one attached document, chosen at
 * its top. The choice belongs to the page above, so it stays while the reader moves on.
 */
export function DocumentPane({
  id,
  documents,
  choice,
  onChoose,
}: {
  id: string;
  documents: readonly PaneDocument[];
  /** APPLICATION_PDF_CHOICE or a document's answer key, already known to be one of these. */
  choice: string;
  onChoose: (choice: string) => void;
}) {
  const selectId = useId();
  const [attempt, setAttempt] = useState(0);
  const chosen = documents.find((document) => document.answerKey === choice) ?? null;
  const path = chosen ? applicationUrls.document(id, chosen.answerKey) : applicationUrls.pdf(id);
  const title = chosen ? chosen.label : 'Application PDF';
  const file = usePaneFile(path, attempt, id);
  return (
    <section aria-labelledby="documents-title" className={styles.pane}>
      <div className={styles.paneBar}>
        <h2 id="documents-title" className={styles.paneTitle}>
          Documents
        </h2>
        <label htmlFor={selectId} className={styles.paneLabel}>
          Show
        </label>
        <select
          id={selectId}
          className={styles.paneSelect}
          value={chosen ? chosen.answerKey : APPLICATION_PDF_CHOICE}
          onChange={(event) => onChoose(event.target.value)}
        >
          <option value={APPLICATION_PDF_CHOICE}>Application PDF</option>
          {documents.map((document) => (
            <option key={document.answerKey} value={document.answerKey}>
              {document.label}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.paneBody}>
        {file.kind === 'ready' ? (
          <iframe
            key={file.url}
            // The viewer without its page thumbnails, each page as wide as the pane.
            src={`${file.url}#navpanes=0&view=FitH`}
            title={title}
            className={styles.paneFrame}
          />
        ) : file.kind === 'loading' ? (
          <p role="status" className={styles.paneMessage}>
            <LoadingIndicator type="circles" size="xs" /> {file.text}
          </p>
        ) : (
          <div role="alert" className={styles.paneMessage}>
            <p>{file.text}</p>
            <Button type="button" variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          </div>
        )}
      </div>
    </section>
  );
}
