import type { Answers } from '../../shared/form/model';
import { isToastMessage, type ToastMessage } from '../toast/toast-types';

/**
 * Everything the app carries in `location.state` between screens (spec 000 section 2):
 * - `answers`: what an anonymous visitor typed into the form, carried to the account screens and
 *   back so nothing is lost (the form's answer store fills it; saved at the first log-in);
 * - `toast`: a message the next screen shows once (the root layout reads and removes it);
 * - `username`: the account being confirmed, or the address to prefill on the next account screen.
 */
export interface AppNavigationState {
  answers?: Answers;
  toast?: ToastMessage;
  username?: string;
}

/** History state survives reloads and can hold anything, so every field is checked before use. */
export function readNavigationState(state: unknown): AppNavigationState {
  if (typeof state !== 'object' || state === null) {
    return {};
  }
  const { answers, toast, username } = state as Record<string, unknown>;
  const result: AppNavigationState = {};
  if (isAnswers(answers)) {
    result.answers = answers;
  }
  if (isToastMessage(toast)) {
    result.toast = toast;
  }
  if (typeof username === 'string' && username.trim() !== '') {
    result.username = username;
  }
  return result;
}

/**
 * The state for the next screen: the current screen's answers travel on, plus whatever this
 * navigation adds (a toast, a username). Nothing else from the current state is kept.
 */
export function nextNavigationState(
  current: unknown,
  additions: Omit<AppNavigationState, 'answers'> = {},
): AppNavigationState {
  const { answers } = readNavigationState(current);
  const next: AppNavigationState = answers ? { answers } : {};
  if (additions.toast) {
    next.toast = additions.toast;
  }
  if (additions.username) {
    next.username = additions.username;
  }
  return next;
}

function isAnswers(value: unknown): value is Answers {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every(
      (answer) => typeof answer === 'string' || typeof answer === 'boolean',
    )
  );
}
