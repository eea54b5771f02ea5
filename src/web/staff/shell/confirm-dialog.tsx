import { type ReactNode, useRef } from 'react';
import { Modal } from '../../modal/modal';
import modalStyles from '../../modal/modal.module.css';
import { Button } from '../../ui/button';

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
        <Button ref={cancelRef} type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="button" variant="primary" onClick={onConfirm}>
          {action}
        </Button>
      </div>
    </Modal>
  );
}
