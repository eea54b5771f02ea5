import type { SubmitItem, SubmitOutcome } from './applications-store';
import { createStatementBatches } from './statement-batches';

/**
 * Submits of this server go to the database one statement at a time (`createStatementBatches`).
 * Alone, each would wait for the previous one's commit on the cycle's sequence row; together
 * they share one commit. An account appears once per statement (a second submit of it goes in
 * the next one and finds it submitted).
 */
export function createSubmitBatches(
  run: (items: readonly SubmitItem[]) => Promise<Map<string, SubmitOutcome>>,
) {
  const batches = createStatementBatches(run, (item) => item.accountId);
  return {
    /** The submit's outcome, or null when the application was not as read (or is submitted). */
    submit: (item: SubmitItem): Promise<SubmitOutcome | null> => batches.send(item),
  };
}
