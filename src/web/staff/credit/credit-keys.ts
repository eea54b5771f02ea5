import { isTypingTarget, type ShortcutKeyPress, type ShortcutTarget } from '../common/key-presses';

/** What the evaluator's keys do on the course grid. */
export type CreditKeyAction =
  | 'down'
  | 'up'
  | 'first'
  | 'last'
  | 'verify'
  | 'correct'
  | 'not_on_transcript'
  | 'undo';

/** The actions that change a review: a reader (can_evaluate false) has none of them. */
export const REVIEW_ACTIONS: ReadonlySet<CreditKeyAction> = new Set([
  'verify',
  'correct',
  'not_on_transcript',
  'undo',
]);

export const CREDIT_KEY_HELP: ReadonlyArray<{ keys: string[]; does: string; review: boolean }> = [
  { keys: ['ArrowDown', 'j'], does: 'Next course', review: false },
  { keys: ['ArrowUp', 'k'], does: 'Previous course', review: false },
  { keys: ['Home', 'End'], does: 'First or last course', review: false },
  { keys: ['v'], does: 'Verify the course and move to the next', review: true },
  { keys: ['c'], does: 'Correct the course (Enter saves, Escape cancels)', review: true },
  { keys: ['n'], does: 'Mark the course not on the transcript', review: true },
  { keys: ['u'], does: 'Undo the review of the course', review: true },
];

/**
 * The grid's action for a key pressed on a course row, or null. Never while typing in a field,
 * never with a modifier (the browser's and the screen reader's keys keep working), and a held key
 * moves but does not review course after course.
 */
export function creditKeyFor(
  press: ShortcutKeyPress,
  target: ShortcutTarget | null,
  canEvaluate: boolean,
): CreditKeyAction | null {
  if (press.defaultPrevented || press.isComposing) return null;
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  if (isTypingTarget(target)) return null;
  const action = actionOf(press.key, press.shiftKey);
  if (!action) return null;
  if (REVIEW_ACTIONS.has(action) && (!canEvaluate || press.repeat)) return null;
  return action;
}

function actionOf(key: string, shift: boolean): CreditKeyAction | null {
  switch (key) {
    case 'ArrowDown':
      return 'down';
    case 'ArrowUp':
      return 'up';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
  }
  if (shift) return null;
  switch (key) {
    case 'j':
      return 'down';
    case 'k':
      return 'up';
    case 'v':
      return 'verify';
    case 'c':
      return 'correct';
    case 'n':
      return 'not_on_transcript';
    case 'u':
      return 'undo';
    default:
      return null;
  }
}

/** The row the focus moves to, kept inside the list. */
export function movedIndex(action: CreditKeyAction, current: number, count: number): number {
  if (count === 0) return 0;
  switch (action) {
    case 'down':
      return Math.min(current + 1, count - 1);
    case 'up':
      return Math.max(current - 1, 0);
    case 'first':
      return 0;
    case 'last':
      return count - 1;
    default:
      return current;
  }
}
