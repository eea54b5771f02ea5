import {
  cloneElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type RefObject,
  useId,
  useRef,
  useState,
} from 'react';
import { onDemand } from '../ui/on-demand';

/** Spec 000 section 3: xs 30rem, s 60rem, m 80vw (tablet: xs 30rem, s 70vw, m 90vw). */
export type ModalSize = 'xs' | 's' | 'm';

export interface ModalProps {
  title: string;
  description?: ReactNode;
  size?: ModalSize;
  /** The element that opens the modal; omit it and control `open` for modals opened by code. */
  trigger?: ReactElement<TriggerProps>;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The element to focus on opening; without it Radix focuses the first focusable one. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /**
   * For a modal opened by code: the element to focus on closing, when the one focused before
   * opening will not do (a button disabled while its call ran has lost focus).
   */
  returnFocusRef?: RefObject<HTMLElement | null>;
  children?: ReactNode;
}

interface TriggerProps {
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
  ref?: RefObject<HTMLElement | null>;
  'aria-haspopup'?: 'dialog';
  'aria-expanded'?: boolean;
  'aria-controls'?: string;
}

const modalDialog = onDemand(() => import('./modal-dialog'));

/**
 * A modal dialog. The dialog itself (Radix, with its focus trap and scroll lock) is loaded the
 * first time a modal opens, or when the pointer or focus reaches a trigger, so it stays out of the
 * first load of a page: most visits never open one. It opens as soon as it has loaded.
 */
export function Modal({
  trigger,
  open,
  defaultOpen,
  onOpenChange,
  returnFocusRef,
  ...dialog
}: ModalProps) {
  const [ownOpen, setOwnOpen] = useState(defaultOpen ?? false);
  const isOpen = open ?? ownOpen;
  const [mounted, setMounted] = useState(isOpen);
  // Kept once opened, so closing plays Radix's exit and returns focus.
  if (isOpen && !mounted) setMounted(true);
  const triggerRef = useRef<HTMLElement>(null);
  const contentId = useId();

  function setOpen(next: boolean) {
    if (open === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  }

  const ModalDialog = modalDialog.useLoaded(mounted);
  const prefetch = modalDialog.preload;
  return (
    <>
      {trigger
        ? cloneElement(trigger, {
            ref: triggerRef,
            'aria-haspopup': 'dialog',
            'aria-expanded': isOpen,
            ...(isOpen ? { 'aria-controls': contentId } : {}),
            onClick: (event: MouseEvent<HTMLElement>) => {
              trigger.props.onClick?.(event);
              if (!event.defaultPrevented) setOpen(true);
            },
            onPointerEnter: prefetch,
            onFocus: prefetch,
          })
        : null}
      {mounted && ModalDialog ? (
        <ModalDialog
          {...dialog}
          contentId={contentId}
          open={isOpen}
          onOpenChange={setOpen}
          returnFocusRef={trigger ? triggerRef : returnFocusRef}
        />
      ) : null}
    </>
  );
}
