import { Dialog } from 'radix-ui';
import { type RefObject, useRef } from 'react';
import { CloseIcon } from '../ui/close-icon';
import { cx } from '../ui/cx';
import type { ModalProps, ModalSize } from './modal';
import styles from './modal.module.css';

export interface ModalDialogProps extends Omit<ModalProps, 'trigger' | 'defaultOpen'> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * Where focus goes back to on closing: the trigger, or what the opener names. Without either,
   * focus goes back to where it was when the dialog opened.
   */
  returnFocusRef?: RefObject<HTMLElement | null>;
  contentId?: string;
}

const sizeClass: Record<ModalSize, string | undefined> = {
  xs: styles.xs,
  s: styles.s,
  m: styles.m,
};

/** The Radix dialog behind `Modal`, in a chunk of its own loaded when a modal first opens. */
export default function ModalDialog({
  title,
  description,
  size = 's',
  open,
  onOpenChange,
  initialFocusRef,
  returnFocusRef,
  contentId,
  children,
}: ModalDialogProps) {
  const focusedBeforeOpening = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          id={contentId}
          className={cx(styles.content, sizeClass[size])}
          onOpenAutoFocus={(event) => {
            focusedBeforeOpening.current =
              document.activeElement instanceof HTMLElement ? document.activeElement : null;
            const target = initialFocusRef?.current;
            if (target) {
              event.preventDefault();
              target.focus();
            }
          }}
          onCloseAutoFocus={(event) => {
            // Radix alone would focus its own trigger, which a dialog opened by code lacks.
            const target = returnFocusRef?.current ?? focusedBeforeOpening.current;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
          // Without a description Radix would point aria-describedby at nothing and warn.
          {...(description === undefined ? { 'aria-describedby': undefined } : {})}
        >
          <div className={styles.header}>
            <Dialog.Title className={styles.title}>{title}</Dialog.Title>
            <Dialog.Close className={styles.close} aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </div>
          <div className={styles.body}>
            {description === undefined ? null : (
              <Dialog.Description className={styles.description}>{description}</Dialog.Description>
            )}
            {children}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
