import { type RefObject, useRef, useState, useSyncExternalStore } from 'react';
import { ErrorDialog } from '../modal/error-dialog';
import { Button } from '../ui/button';
import type { Autosave, SaveFailure } from './autosave';

/** Said after the server's message: nothing typed is lost while saving fails. */
export const KEPT_ON_THIS_DEVICE =
  'Your answers are kept on this device and will be saved when you try again.';

interface FormErrorDialogProps {
  autosave: Autosave;
  /** Why the last submit failed, in the server's words where it gave some; null when none did. */
  submitFailure: string | null;
  onSubmitFailureClose: () => void;
  onRetrySubmit: () => void;
  /** Focus goes back here after a submit failure: the button lost it while disabled. */
  submitButtonRef: RefObject<HTMLButtonElement | null>;
}

/**
 * Spec 000 section 8: submit and save errors are shown in a dialog. It opens when a submit
 * fails and each time saving gives up, with the server's message and Try again, which focus
 * starts on; closing it returns focus to where the applicant was.
 */
export function FormErrorDialog({
  autosave,
  submitFailure,
  onSubmitFailureClose,
  onRetrySubmit,
  submitButtonRef,
}: FormErrorDialogProps) {
  const saveFailure = useSyncExternalStore(
    autosave.subscribe,
    autosave.getFailure,
    autosave.getFailure,
  );
  // Each give-up is a new failure, so closing one does not hide the next.
  const [closedSaveFailure, setClosedSaveFailure] = useState<SaveFailure | null>(null);
  const tryAgain = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  const saveFailureOpen = saveFailure !== null && saveFailure !== closedSaveFailure;
  const message =
    submitFailure ?? (saveFailureOpen ? `${saveFailure.message} ${KEPT_ON_THIS_DEVICE}` : null);
  // The closing dialog keeps its text while it fades out.
  const [shownMessage, setShownMessage] = useState(message);
  if (message !== null && message !== shownMessage) setShownMessage(message);

  function close() {
    // A save failure returns focus to where the applicant was typing, the dialog's default.
    returnFocus.current = submitFailure !== null ? submitButtonRef.current : null;
    if (submitFailure !== null) onSubmitFailureClose();
    if (saveFailure !== null) setClosedSaveFailure(saveFailure);
  }

  function retry() {
    const submitting = submitFailure !== null;
    close();
    if (submitting) onRetrySubmit();
    else void autosave.retry();
  }

  return (
    <ErrorDialog
      open={message !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      message={shownMessage}
      initialFocusRef={tryAgain}
      returnFocusRef={returnFocus}
      actions={
        <Button ref={tryAgain} type="button" variant="primary" onClick={retry}>
          Try again
        </Button>
      }
    />
  );
}
