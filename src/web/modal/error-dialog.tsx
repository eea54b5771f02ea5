import type { ReactNode } from 'react';
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
}

export function ErrorDialog({ open, onOpenChange, message, actions }: ErrorDialogProps) {
  return (
    <Modal
      title={UNEXPECTED_ERROR_TITLE}
      description={message}
      size="xs"
      open={open}
      onOpenChange={onOpenChange}
    >
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </Modal>
  );
}
