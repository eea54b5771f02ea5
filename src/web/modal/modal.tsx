import { Dialog } from 'radix-ui';
import type { ReactElement, ReactNode, RefObject } from 'react';
import { CloseIcon } from '../ui/close-icon';
import { cx } from '../ui/cx';
import styles from './modal.module.css';

/** Spec 000 section 3: xs 30rem, s 60rem, m 80vw (tablet: xs 30rem, s 70vw, m 90vw). */
export type ModalSize = 'xs' | 's' | 'm';

export interface ModalProps {
  title: string;
  description?: ReactNode;
  size?: ModalSize;
  /** The element that opens the modal; omit it and control `open` for modals opened by code. */
  trigger?: ReactElement;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The element to focus on opening; without it Radix focuses the first focusable one. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  children?: ReactNode;
}

const sizeClass: Record<ModalSize, string | undefined> = {
  xs: styles.xs,
  s: styles.s,
  m: styles.m,
};

export function Modal({
  title,
  description,
  size = 's',
  trigger,
  open,
  defaultOpen,
  onOpenChange,
  initialFocusRef,
  children,
}: ModalProps) {
  // Radix treats a passed `open: undefined` as controlled, so only pass what the caller set.
  const rootProps = {
    ...(open === undefined ? {} : { open }),
    ...(defaultOpen === undefined ? {} : { defaultOpen }),
    ...(onOpenChange === undefined ? {} : { onOpenChange }),
  };

  return (
    <Dialog.Root {...rootProps}>
      {trigger ? <Dialog.Trigger asChild>{trigger}</Dialog.Trigger> : null}
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={cx(styles.content, sizeClass[size])}
          onOpenAutoFocus={(event) => {
            const target = initialFocusRef?.current;
            if (target) {
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
