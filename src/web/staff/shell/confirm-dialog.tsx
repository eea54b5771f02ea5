import { type ReactNode, useRef } from 'react';
import { Modal } from '../../modal/modal';
import modalStyles from '../../modal/modal.module.css';
import buttonStyles from '../../ui/button.module.css';
import { cx } from '../../ui/cx';

/**
 * Asks before an action that cannot be undone (a release reaches applicants). Focus starts on
 * Cancel, so a stray Enter does nothing; it stays in the dialog, and goes back to the button that
 * opened it when the dialog closes.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  action,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  /** The confirming button's words: the action itself, never a bare "OK". */
  action: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title={title}
      size="xs"
      open={open}
      initialFocusRef={cancelRef}
      onOpenChange={(next) => {
        if (!next) onCancel();
      }}
      description={description}
    >
      <div className={modalStyles.actions}>
        <button
          ref={cancelRef}
          type="button"
          className={cx(buttonStyles.button, buttonStyles.secondary)}
          onClick={onCancel}
        >
          Cancel
        </button>
        <button
          type="button"
          className={cx(buttonStyles.button, buttonStyles.primary)}
          onClick={onConfirm}
        >
          {action}
        </button>
      </div>
    </Modal>
  );
}
