import type { ValidationErrors } from '../../shared/form/validate';
import { createStore } from '../state/create-store';

/**
 * What a failed submit hands to the page it returns to: the errors (the browser's, or the
 * server's from a 422). The page shows them and moves the focus to its summary.
 */
export interface SummaryState {
  showAfterSubmit(errors: ValidationErrors): void;
  peekSubmitErrors(): ValidationErrors | null;
  clearSubmitErrors(): void;
}

export function createSummaryState(): SummaryState {
  const pending = createStore<ValidationErrors | null>(null);
  return {
    showAfterSubmit: (errors) => pending.set(errors),
    peekSubmitErrors: () => pending.get(),
    clearSubmitErrors: () => pending.set(null),
  };
}
