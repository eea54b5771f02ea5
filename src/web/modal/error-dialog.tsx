import type { ReactNode, RefObject } from 'react';
import { Modal } from './modal';
import styles from './modal.module.css';

/** Spec 000 section 8: uncaught errors may be shown in a dialog titled 'Unexpected Error'. */
export const UNEXPECTED_ERROR_TITLE = 'Unexpected Error';

interface ErrorDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What went wrong and what the user can do, in one or two sentences. */
  message: ReactNode;
  /** The dialog's buttons; the close button in the corner is always there. */
  actions?: ReactNode;
  /** The action to focus on opening, usually Try again; else the close button in the corner. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Where focus goes on closing, when not where it was before opening. */
  returnFocusRef?: RefObject<HTMLElement | null>;
}

export function ErrorDialog({
  open,
  onOpenChange,
  message,
  actions,
  initialFocusRef,
  returnFocusRef,
}: ErrorDialogProps) {
  return (
    <Modal
      title={UNEXPECTED_ERROR_TITLE}
      description={message}
      size="xs"
      open={open}
      onOpenChange={onOpenChange}
      initialFocusRef={initialFocusRef}
      returnFocusRef={returnFocusRef}
    >
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </Modal>
  );
}
