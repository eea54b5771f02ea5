/** Bounds one statement's size (a submit carries its answers, a read brings them back). */
const MOST_PER_STATEMENT = 50;

interface Waiting<Item, Outcome> {
  item: Item;
  resolve(outcome: Outcome | null): void;
  reject(error: unknown): void;
}

/**
 * Calls of one kind go to the database as at most `inFlight` statements at a time (one unless
 * given): a call that finds a statement free goes at once, on its own; those that arrive while
 * every statement is on its way wait, then go together in the next. On deadline night a burst
 * then costs a few statements instead of one each, and no call waits for more than the
 * statements ahead of it. A key appears once per statement (a second call with it goes in the
 * next one). `run` answers each item's outcome under its key; an item left out gets null.
 */
export function createStatementBatches<Item, Outcome>(
  run: (items: readonly Item[]) => Promise<ReadonlyMap<string, Outcome>>,
  keyOf: (item: Item) => string,
  inFlight = 1,
) {
  const waiting: Waiting<Item, Outcome>[] = [];
  let running = 0;

  async function settle(batch: Waiting<Item, Outcome>[]): Promise<void> {
    try {
      const outcomes = await run(batch.map((entry) => entry.item));
      for (const entry of batch) entry.resolve(outcomes.get(keyOf(entry.item)) ?? null);
    } catch (error) {
      const [only] = batch;
      if (batch.length === 1 && only) {
        only.reject(error);
        return;
      }
      // One call's failure must not fail the others with it: each again on its own.
      for (const entry of batch) await settle([entry]);
    }
  }

  function nextBatch(): Waiting<Item, Outcome>[] {
    const batch: Waiting<Item, Outcome>[] = [];
    const keys = new Set<string>();
    for (let n = 0; n < waiting.length && batch.length < MOST_PER_STATEMENT; ) {
      const entry = waiting[n] as Waiting<Item, Outcome>;
      const key = keyOf(entry.item);
      if (keys.has(key)) {
        n++;
        continue;
      }
      keys.add(key);
      batch.push(entry);
      waiting.splice(n, 1);
    }
    return batch;
  }

  function startStatements(): void {
    while (running < inFlight && waiting.length > 0) {
      running++;
      void settle(nextBatch()).finally(() => {
        running--;
        startStatements();
      });
    }
  }

  return {
    /** The item's outcome, or null when the statement left it out. */
    send(item: Item): Promise<Outcome | null> {
      return new Promise((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        startStatements();
      });
    },
  };
}
