import type { SubmitItem, SubmitOutcome } from './applications-store';

/** Bounds one statement's size (each submit carries its answers). */
const MOST_PER_STATEMENT = 50;

interface Waiting {
  item: SubmitItem;
  resolve(outcome: SubmitOutcome | null): void;
  reject(error: unknown): void;
}

/**
 * Submits of this server go to the database one statement at a time: those that arrive while a
 * statement is on its way wait for it, then go together in the next. Alone, each would wait for
 * the previous one's commit on the cycle's sequence row; together they share one commit, and
 * no submit waits for more than the statement ahead of it. An account appears once per
 * statement (a second submit of it goes in the next one and finds it submitted).
 */
export function createSubmitBatches(
  run: (items: readonly SubmitItem[]) => Promise<Map<string, SubmitOutcome>>,
) {
  const waiting: Waiting[] = [];
  let running = false;

  async function settle(batch: Waiting[]): Promise<void> {
    try {
      const outcomes = await run(batch.map((entry) => entry.item));
      for (const entry of batch) entry.resolve(outcomes.get(entry.item.accountId) ?? null);
    } catch (error) {
      const [only] = batch;
      if (batch.length === 1 && only) {
        only.reject(error);
        return;
      }
      // One submit's failure must not fail the others with it: each again on its own.
      for (const entry of batch) await settle([entry]);
    }
  }

  async function drain(): Promise<void> {
    running = true;
    try {
      while (waiting.length > 0) {
        const batch: Waiting[] = [];
        const accounts = new Set<string>();
        for (let n = 0; n < waiting.length && batch.length < MOST_PER_STATEMENT; ) {
          const entry = waiting[n] as Waiting;
          if (accounts.has(entry.item.accountId)) {
            n++;
            continue;
          }
          accounts.add(entry.item.accountId);
          batch.push(entry);
          waiting.splice(n, 1);
        }
        await settle(batch);
      }
    } finally {
      running = false;
    }
  }

  return {
    /** The submit's outcome, or null when the application was not as read (or is submitted). */
    submit(item: SubmitItem): Promise<SubmitOutcome | null> {
      return new Promise((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}
