import type { ToastMessage } from './toast-types';

/** A toast being shown or playing its exit animation. */
export interface QueuedToast extends ToastMessage {
  id: number;
  open: boolean;
  /** The path of the screen it was shown on: an error ends when the applicant leaves it. */
  screen: string;
}

function isOpenError(toast: QueuedToast): boolean {
  return toast.open && toast.severity === 'error';
}

/** Closes the matching toasts; the same array when none matched, so React skips the render. */
function closeWhere(
  queue: readonly QueuedToast[],
  matches: (toast: QueuedToast) => boolean,
): QueuedToast[] {
  if (!queue.some(matches)) return queue as QueuedToast[];
  return queue.map((toast) => (matches(toast) ? { ...toast, open: false } : toast));
}

/**
 * Adds a toast without piling them up over the screen: it takes the place of a success toast
 * still showing (that news is now older), and an error of an earlier failure of the same action
 * (an error's title names the action).
 */
export function addToast(
  queue: readonly QueuedToast[],
  toast: Omit<QueuedToast, 'open'>,
): QueuedToast[] {
  const rest = closeWhere(
    queue,
    (shown) =>
      shown.open &&
      (shown.severity === 'success' || (toast.severity === 'error' && shown.title === toast.title)),
  );
  return [...rest, { ...toast, open: true }];
}

/** The action the error was titled after has succeeded: the error has nothing left to say. */
export function resolveError(queue: readonly QueuedToast[], title: string): QueuedToast[] {
  return closeWhere(queue, (toast) => isOpenError(toast) && toast.title === title);
}

/** The applicant is now on `screen`: errors that belong to another screen no longer apply. */
export function enterScreen(queue: readonly QueuedToast[], screen: string): QueuedToast[] {
  return closeWhere(queue, (toast) => isOpenError(toast) && toast.screen !== screen);
}

export function closeToast(queue: readonly QueuedToast[], id: number): QueuedToast[] {
  return closeWhere(queue, (toast) => toast.open && toast.id === id);
}

/** Drops the closed toasts once their exit animation has played. */
export function dropClosed(queue: readonly QueuedToast[]): QueuedToast[] {
  return queue.every((toast) => toast.open)
    ? (queue as QueuedToast[])
    : queue.filter((toast) => toast.open);
}
