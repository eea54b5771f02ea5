import { Toast } from 'radix-ui';
import { type RefObject, useEffect, useRef, useState } from 'react';
import {
  ERROR_TOAST_DURATION_MS,
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_THRESHOLD,
} from '../../shared/constants';
import { CloseIcon } from '../ui/close-icon';
import { cx } from '../ui/cx';
import styles from './toast.module.css';
import type { QueuedToast } from './toast-queue';

/** The custom properties global.css reads as the page's scroll padding while toasts show. */
const TOAST_INSET_PROPERTY = { top: '--toast-inset-top', bottom: '--toast-inset-bottom' } as const;
/** Space kept between the toasts and the control they move away from, in pixels. */
const FOCUS_CLEARANCE = 8;

type Placement = keyof typeof TOAST_INSET_PROPERTY;

/** The toasts on screen, drawn with Radix Toast; the queue and its rules live in ToastProvider. */
export default function ToastView({
  toasts,
  onClose,
}: {
  toasts: readonly QueuedToast[];
  onClose: (id: number) => void;
}) {
  const viewport = useRef<HTMLOListElement>(null);
  const placement = useToastsClearOfFocus(
    viewport,
    toasts.some((toast) => toast.open),
  );
  return (
    <Toast.Provider duration={TOAST_DURATION_MS} swipeThreshold={TOAST_SWIPE_THRESHOLD}>
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          open={toast.open}
          onOpenChange={(open) => {
            if (!open) onClose(toast.id);
          }}
          // Errors stay long enough to be read and acted on; screen readers hear them at once.
          duration={toast.severity === 'error' ? ERROR_TOAST_DURATION_MS : undefined}
          type={toast.severity === 'error' ? 'foreground' : 'background'}
          className={cx(styles.toast, toast.severity === 'error' ? styles.error : styles.success)}
        >
          <span className={styles.icon} aria-hidden="true">
            {toast.severity === 'error' ? '!' : '✓'}
          </span>
          <div className={styles.text}>
            <Toast.Title className={styles.title}>{toast.title}</Toast.Title>
            {toast.description ? (
              <Toast.Description className={styles.description}>
                {toast.description}
              </Toast.Description>
            ) : null}
          </div>
          <Toast.Close className={styles.close} aria-label="Close">
            <CloseIcon />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        ref={viewport}
        className={styles.viewport}
        data-placement={placement}
        hotkey={[TOAST_HOTKEY]}
      />
    </Toast.Provider>
  );
}

/** The focused control as the eye finds it: a visually hidden radio or checkbox by its label. */
function focusedBox(): DOMRect | null {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  // A dialog is drawn above the toasts: nothing of them can cover what is in it.
  if (active.closest('[role="dialog"], [role="alertdialog"]')) return null;
  const box = active.getBoundingClientRect();
  const label = active instanceof HTMLInputElement ? active.labels?.[0] : undefined;
  return (box.width < 4 || box.height < 4) && label ? label.getBoundingClientRect() : box;
}

/** The area the toasts themselves cover (the list around them takes no room of its own). */
function toastsBox(viewport: HTMLElement): DOMRect | null {
  const boxes = [...viewport.children].map((toast) => toast.getBoundingClientRect());
  const drawn = boxes.filter((box) => box.width > 0 && box.height > 0);
  if (drawn.length === 0) return null;
  const top = Math.min(...drawn.map((box) => box.top));
  const bottom = Math.max(...drawn.map((box) => box.bottom));
  const left = Math.min(...drawn.map((box) => box.left));
  const right = Math.max(...drawn.map((box) => box.right));
  return new DOMRect(left, top, right - left, bottom - top);
}

const overlaps = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Toasts never cover the focused control (WCAG 2.4.11). While they show, the page's scroll
 * padding leaves their room, so a control the applicant moves to is scrolled into view beside
 * them. Where scrolling cannot help (a control at the very top of the page, or a toast that
 * arrives over the control that has the focus), the page scrolls when it can, and otherwise the
 * toasts move to the other edge of the screen until they have all gone.
 */
function useToastsClearOfFocus(
  viewport: RefObject<HTMLElement | null>,
  showing: boolean,
): Placement {
  const [placement, setPlacement] = useState<Placement>('top');

  useEffect(() => {
    const element = viewport.current;
    const root = document.documentElement;
    const clearInsets = () => {
      root.style.removeProperty(TOAST_INSET_PROPERTY.top);
      root.style.removeProperty(TOAST_INSET_PROPERTY.bottom);
    };
    if (!showing || !element) {
      clearInsets();
      setPlacement('top');
      return;
    }
    const measure = () => {
      const box = element.getBoundingClientRect();
      clearInsets();
      if (placement === 'top')
        root.style.setProperty(TOAST_INSET_PROPERTY.top, `${Math.ceil(box.bottom)}px`);
      else
        root.style.setProperty(
          TOAST_INSET_PROPERTY.bottom,
          `${Math.ceil(window.innerHeight - box.top)}px`,
        );
    };
    const keepClear = () => {
      const focus = focusedBox();
      const toasts = toastsBox(element);
      if (!focus || !toasts || !overlaps(focus, toasts)) return;
      if (placement === 'top') {
        const needed = toasts.bottom - focus.top + FOCUS_CLEARANCE;
        if (window.scrollY >= needed) window.scrollBy({ top: -needed, behavior: 'instant' });
        else setPlacement('bottom');
      } else {
        const needed = focus.bottom - toasts.top + FOCUS_CLEARANCE;
        const room = root.scrollHeight - window.innerHeight - window.scrollY;
        if (room >= needed) window.scrollBy({ top: needed, behavior: 'instant' });
        else setPlacement('top');
      }
    };
    // After the browser has scrolled the newly focused control into view.
    let frame = 0;
    const afterScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(keepClear);
    };
    measure();
    keepClear();
    const observer = new ResizeObserver(() => {
      measure();
      afterScroll();
    });
    observer.observe(element);
    document.addEventListener('focusin', afterScroll);
    window.addEventListener('resize', afterScroll);
    // A toast sliding in is measured where it comes to rest.
    element.addEventListener('animationend', afterScroll);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      element.removeEventListener('animationend', afterScroll);
      document.removeEventListener('focusin', afterScroll);
      window.removeEventListener('resize', afterScroll);
      clearInsets();
    };
  }, [viewport, showing, placement]);

  return placement;
}
