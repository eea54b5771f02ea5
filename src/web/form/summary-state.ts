import type { ValidationErrors } from '../../shared/form/validate';

/**
 * What a failed submit hands to the page it returns to: the errors (the browser's, or the
 * server's from a 422) and the request to move focus to the summary.
 */
let pending: { errors: ValidationErrors; focus: boolean } | null = null;

export function showSummaryAfterSubmit(errors: ValidationErrors): void {
  pending = { errors, focus: true };
}

export function peekSubmitErrors(): ValidationErrors | null {
  return pending?.errors ?? null;
}

/** True once per failed submit: the first summary to mount takes the focus. */
export function takeSummaryFocus(): boolean {
  if (!pending?.focus) return false;
  pending = { ...pending, focus: false };
  return true;
}

export function clearSubmitErrors(): void {
  pending = null;
}
