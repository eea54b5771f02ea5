import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ChangeEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { FILE_INPUT_ACCEPT, FILE_RULES_HINT } from '../../shared/documents/file-rules';
import type { Field } from '../../shared/form/model';
import { trackedCall } from '../app-state/tracked-call';
import { documentAnswersQueryOptions, fetchDocumentPdf } from '../data/documents';
import { Modal } from '../modal/modal';
import modalStyles from '../modal/modal.module.css';
import { useStore } from '../state/create-store';
import { useToast } from '../toast/use-toast';
import { Button, buttonClassName } from '../ui/button';
import { cx } from '../ui/cx';
import { QuestionLabel } from '../ui/question-label';
import styles from './file-question.module.css';
import formStyles from './form.module.css';
import { useFormContext } from './form-context';
import { useFormTools } from './form-tools';
import {
  formatFileSize,
  phaseAnnouncement,
  type UploadEntry,
  type UploadPhase,
  uploadPercent,
} from './upload-progress-store';

/** What a signed-in file question shows, in the order an upload goes through them. */
type QuestionView = 'loading' | 'chooser' | 'progress' | 'card';

export const ACCOUNT_NEEDED_MESSAGE =
  'This question can be finished once you have created an account.';
/** Spec 001 sections 4 and 8, quoted exactly. */
export const UPLOAD_IN_PROGRESS_TITLE = 'File Upload in Progress';
export const UPLOAD_IN_PROGRESS_TEXT = 'Please wait until the file upload has completed.';
export const DELETE_FILE_TITLE = 'Delete File';
export const DELETE_FILE_TEXT = 'Are you sure you want to delete your file?';

const LIST_FAILED_MESSAGE = 'We could not load your uploaded file.';

export interface FileQuestionProps {
  field: Field;
  answerKey: string;
  inputId: string;
  /** The field's help and its validation messages, rendered as every field renders them. */
  help: ReactNode;
  helpId: string | undefined;
  errors: ReactNode;
  errorId: string;
  invalid: boolean;
  /** The question must be answered now (decision 024): marked, and required on the input. */
  required: boolean;
}

/**
 * A file question (spec 001 section 4): the limits stated up front, the chosen file checked,
 * uploaded with progress and converted to PDF, then its name and size with a preview and a
 * delete behind a confirmation. Anonymous visitors are told to create an account first.
 */
export function FileQuestion(props: FileQuestionProps) {
  const { isLoggedIn } = useFormContext();
  return (
    <fieldset className={formStyles.radioGroup}>
      <legend className={formStyles.label}>
        <QuestionLabel text={props.field.label} required={props.required} />
      </legend>
      {props.help}
      {isLoggedIn ? (
        <SignedInFileQuestion {...props} label={props.field.label} deletable />
      ) : (
        <p className={formStyles.fileNote}>{ACCOUNT_NEEDED_MESSAGE}</p>
      )}
      {props.errors}
    </fieldset>
  );
}

function useUploadEntry(answerKey: string): UploadEntry {
  const { progress } = useFormTools().uploads;
  const subscribe = useCallback(
    (listener: () => void) => progress.subscribe(answerKey, listener),
    [progress, answerKey],
  );
  const read = () => progress.get(answerKey);
  return useSyncExternalStore(subscribe, read, read);
}

export type FileUploadProps = Omit<FileQuestionProps, 'field' | 'help' | 'errors'> & {
  /** Names the question in the chooser, the toasts and the upload messages. */
  label: string;
  /** False after submit: a submitted document stays as it was sent. */
  deletable: boolean;
};

/**
 * The signed-in upload of one file question: chooser, progress, then the file card. The status
 * page uses it too, inside the same form tools, for a document still awaited after submit.
 */
export function SignedInFileQuestion({
  label,
  deletable,
  answerKey,
  inputId,
  helpId,
  errorId,
  invalid,
  required,
}: FileUploadProps) {
  const toast = useToast();
  const { controller: uploads, progress, attachToasts, nameFileQuestion } = useFormTools().uploads;
  const entry = useUploadEntry(answerKey);
  const documents = useQuery(documentAnswersQueryOptions);
  const uploaded = documents.data?.[answerKey];
  const listed = documents.isSuccess;
  const [focusChooser, setFocusChooser] = useState(false);
  const focusTaken = useCallback(() => setFocusChooser(false), []);
  const isNoticeHost = useStore(progress.notice, (notice) => notice.hosts[0] === answerKey);

  useEffect(() => attachToasts(toast), [attachToasts, toast]);
  useEffect(() => nameFileQuestion(answerKey, label), [nameFileQuestion, answerKey, label]);
  useEffect(() => progress.offerNoticeHost(answerKey), [progress, answerKey]);
  // A conversion started on an earlier visit (or in another tab) is followed to its end.
  useEffect(() => {
    if (listed && !uploaded) void uploads.resume(answerKey);
  }, [listed, uploaded, uploads, answerKey]);

  const uploadErrorId = `${answerKey}-upload-error`;
  const { phase } = entry;
  // A status read on arrival ('checking') keeps the chooser: it is usually over at once.
  const inFlight = phase.kind === 'uploading' || phase.kind === 'converting';
  const view: QuestionView = documents.isPending
    ? 'loading'
    : inFlight
      ? 'progress'
      : uploaded
        ? 'card'
        : 'chooser';
  const progressRef = useRef<HTMLDivElement>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  /** A file chosen here is on its way: the focus follows it from view to view. */
  const followingUpload = useRef(false);
  const shownView = useRef(view);

  // Each view replaces the one that had the focus (the chooser, then the progress), and the
  // browser would leave the focus on the page's body; it goes to what took their place instead.
  useEffect(() => {
    if (shownView.current === view) return;
    shownView.current = view;
    if (!followingUpload.current) return;
    if (view !== 'progress') followingUpload.current = false;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    if (view === 'progress') progressRef.current?.focus();
    else if (view === 'card') cardRef.current?.querySelector<HTMLElement>('button')?.focus();
    else if (view === 'chooser') setFocusChooser(true);
  }, [view]);

  async function remove(): Promise<boolean> {
    try {
      await uploads.remove(answerKey);
      setFocusChooser(true);
      return true;
    } catch (error) {
      toast.error(
        `Error deleting file for ${label}`,
        error instanceof Error ? error.message : undefined,
      );
      return false;
    }
  }

  let body: ReactNode;
  if (view === 'loading') {
    body = <p className={styles.note}>Loading your file...</p>;
  } else if (view === 'progress') {
    body = <UploadProgress ref={progressRef} phase={phase} progressId={`${answerKey}-progress`} />;
  } else if (uploaded) {
    body = (
      <FileCard
        ref={cardRef}
        answerKey={answerKey}
        fileName={uploaded.file_name}
        fileSize={uploaded.file_size}
        deleting={phase.kind === 'deleting'}
        onDelete={deletable ? remove : null}
      />
    );
  } else {
    const describedBy = [
      helpId,
      `${answerKey}-rules`,
      entry.error ? uploadErrorId : undefined,
      invalid ? errorId : undefined,
    ]
      .filter(Boolean)
      .join(' ');
    body = (
      <>
        {documents.isError ? (
          <p className={styles.note}>
            {LIST_FAILED_MESSAGE}{' '}
            <Button type="button" variant="link" onClick={() => void documents.refetch()}>
              Try again
            </Button>
          </p>
        ) : null}
        <FileChooser
          inputId={inputId}
          rulesId={`${answerKey}-rules`}
          label={label}
          describedBy={describedBy}
          invalid={invalid || entry.error !== null}
          required={required}
          takeFocus={focusChooser}
          onFocusTaken={focusTaken}
          onChoose={(file) => {
            followingUpload.current = true;
            void uploads.upload(answerKey, file);
          }}
        />
      </>
    );
  }

  return (
    <>
      {body}
      <p role="status" className="visually-hidden">
        {phaseAnnouncement(phase) || entry.done || ''}
      </p>
      <div id={uploadErrorId} className={formStyles.errors} aria-live="polite">
        {entry.error ? (
          <p className={formStyles.error}>
            <span aria-hidden="true" className={formStyles.errorIcon}>
              !
            </span>
            {entry.error}
          </p>
        ) : null}
      </div>
      {isNoticeHost ? <UploadInProgressNotice /> : null}
    </>
  );
}

function FileChooser({
  inputId,
  rulesId,
  label,
  describedBy,
  invalid,
  required,
  takeFocus,
  onFocusTaken,
  onChoose,
}: {
  inputId: string;
  rulesId: string;
  label: string;
  describedBy: string;
  invalid: boolean;
  required: boolean;
  takeFocus: boolean;
  onFocusTaken: () => void;
  onChoose: (file: File) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!takeFocus) return;
    // After the Delete dialog: its own focus return runs on a timer first, to a button now gone.
    const timer = setTimeout(() => {
      input.current?.focus();
      onFocusTaken();
    }, 0);
    return () => clearTimeout(timer);
  }, [takeFocus, onFocusTaken]);

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Emptied, so choosing the same file again after a refusal is a change again.
    event.target.value = '';
    if (file) onChoose(file);
  }

  return (
    <div className={styles.chooser}>
      <p id={rulesId} className={styles.rules}>
        {FILE_RULES_HINT}
      </p>
      <div className={styles.chooserRow}>
        <input
          ref={input}
          id={inputId}
          type="file"
          className={styles.fileInput}
          accept={FILE_INPUT_ACCEPT}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          // Native, since ARIA has no required file input; no form around it, so no browser bubble.
          required={required}
          onChange={choose}
        />
        <label htmlFor={inputId} className={cx(buttonClassName('shape'), styles.chooseButton)}>
          <UploadIcon />
          Choose a file<span className="visually-hidden"> for {label}</span>
        </label>
      </div>
    </div>
  );
}

function progressLabel(phase: UploadPhase): string {
  if (phase.kind === 'uploading') return `Uploading ${phase.fileName}`;
  const fileName = phase.kind === 'converting' ? phase.fileName : null;
  return `Converting ${fileName ?? 'your file'} to PDF`;
}

function UploadProgress({
  phase,
  progressId,
  ref,
}: {
  phase: UploadPhase;
  progressId: string;
  ref: Ref<HTMLDivElement>;
}) {
  const percent = uploadPercent(phase);
  return (
    // Focused by code while the file is on its way (the chooser it replaced had the focus).
    <div ref={ref} tabIndex={-1} className={styles.progress}>
      <div className={styles.progressText}>
        <label htmlFor={progressId}>{progressLabel(phase)}</label>
        {percent === null ? null : <span aria-hidden="true">{percent}%</span>}
      </div>
      {/* Without a value the bar is indeterminate: converting takes as long as it takes. */}
      <progress id={progressId} className={styles.bar} max={100} value={percent ?? undefined} />
    </div>
  );
}

function FileCard({
  answerKey,
  fileName,
  fileSize,
  deleting,
  onDelete,
  ref,
}: {
  ref: Ref<HTMLDivElement>;
  answerKey: string;
  fileName: string;
  fileSize: number;
  deleting: boolean;
  onDelete: (() => Promise<boolean>) | null;
}) {
  const [confirming, setConfirming] = useState(false);
  // A destructive question starts on its harmless answer.
  const cancel = useRef<HTMLButtonElement>(null);

  async function confirmDelete() {
    if (await onDelete?.()) return;
    setConfirming(false);
  }

  return (
    <div ref={ref} className={styles.card}>
      <DocumentIcon />
      <div className={styles.cardText}>
        <p className={styles.fileName}>{fileName}</p>
        <p className={styles.fileMeta}>
          {formatFileSize(fileSize)}
          <span aria-hidden="true"> · </span>
          <span className={styles.completed}>Converted to PDF</span>
        </p>
      </div>
      <div className={styles.cardActions}>
        <PdfPreview answerKey={answerKey} fileName={fileName} />
        {onDelete === null ? null : (
          <Modal
            title={DELETE_FILE_TITLE}
            description={DELETE_FILE_TEXT}
            size="xs"
            initialFocusRef={cancel}
            open={confirming}
            onOpenChange={(open) => {
              if (!deleting) setConfirming(open);
            }}
            trigger={
              <Button
                type="button"
                variant="secondary"
                className={styles.smallButton}
                disabled={deleting}
              >
                Delete<span className="visually-hidden"> {fileName}</span>
              </Button>
            }
          >
            <div className={modalStyles.actions}>
              <Button
                ref={cancel}
                type="button"
                variant="secondary"
                onClick={() => setConfirming(false)}
                disabled={deleting}
              >
                Cancel
              </Button>
              <Button
                type="button"
                variant="shape"
                className={styles.danger}
                onClick={() => void confirmDelete()}
                disabled={deleting}
              >
                {deleting ? 'Deleting...' : 'Delete'}
              </Button>
            </div>
          </Modal>
        )}
      </div>
    </div>
  );
}

type PreviewState =
  | { kind: 'loading' }
  | { kind: 'ready'; url: string }
  | { kind: 'failed'; message: string };

/** The converted PDF, fetched as a blob: the server sends it as an attachment, to its owner only. */
function PdfPreview({ answerKey, fileName }: { answerKey: string; fileName: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<PreviewState>({ kind: 'loading' });

  useEffect(() => {
    if (!open) return;
    let live = true;
    let url: string | null = null;
    setState({ kind: 'loading' });
    trackedCall(queryClient, () => fetchDocumentPdf(answerKey)).then(
      (blob) => {
        if (!live) return;
        url = URL.createObjectURL(blob);
        setState({ kind: 'ready', url });
      },
      (error: unknown) => {
        if (live)
          setState({
            kind: 'failed',
            message: error instanceof Error ? error.message : LIST_FAILED_MESSAGE,
          });
      },
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [open, answerKey, queryClient]);

  const pdfName = `${fileName.replace(/\.[^.]*$/, '') || 'document'}.pdf`;
  return (
    <Modal
      title="Your file as a PDF"
      size="m"
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button type="button" variant="secondary" className={styles.smallButton}>
          View PDF<span className="visually-hidden"> of {fileName}</span>
        </Button>
      }
    >
      <div className={styles.preview}>
        {state.kind === 'loading' ? (
          <p role="status" className={styles.note}>
            Loading the PDF...
          </p>
        ) : null}
        {state.kind === 'failed' ? (
          <p role="alert" className={formStyles.error}>
            {state.message}
          </p>
        ) : null}
        {state.kind === 'ready' ? (
          <>
            <p className={styles.previewLinks}>
              <a href={state.url} target="_blank" rel="noopener">
                Open in a new tab
              </a>
              <a href={state.url} download={pdfName}>
                Download {pdfName}
              </a>
            </p>
            <iframe className={styles.frame} src={state.url} title={`PDF of ${fileName}`} />
          </>
        ) : null}
      </div>
    </Modal>
  );
}

/** The 'File Upload in Progress' notice of a refused tab switch (spec 001 section 4). */
function UploadInProgressNotice() {
  const { progress, takeBlockedOpener } = useFormTools().uploads;
  const blocked = useStore(progress.notice, (notice) => notice.blocked);
  const close = () => {
    progress.setBlocked(false);
    // Opened by code, the dialog has no trigger to return to: back to the tab that was pressed.
    const opener = takeBlockedOpener();
    requestAnimationFrame(() => opener?.focus());
  };
  return (
    <Modal
      title={UPLOAD_IN_PROGRESS_TITLE}
      description={UPLOAD_IN_PROGRESS_TEXT}
      size="xs"
      open={blocked}
      onOpenChange={(open) => {
        if (!open) close();
      }}
    >
      <div className={modalStyles.actions}>
        <Button type="button" variant="primary" onClick={close}>
          OK
        </Button>
      </div>
    </Modal>
  );
}

function DocumentIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      className={styles.icon}
      width="32"
      height="32"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5M9 13h6M9 17h6" />
    </svg>
  );
}

function UploadIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M12 16V4M7 9l5-5 5 5M5 20h14" />
    </svg>
  );
}
