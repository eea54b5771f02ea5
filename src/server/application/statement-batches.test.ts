import { describe, expect, it } from 'vitest';
import { createStatementBatches } from './statement-batches';

describe('statement batches', () => {
  it('sends calls alone while a statement is free, and together once all are on their way', async () => {
    const statements: string[][] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batches = createStatementBatches(
      async (items: readonly string[]) => {
        statements.push([...items]);
        await held;
        return new Map(items.map((item) => [item, item.toUpperCase()]));
      },
      (item) => item,
      2,
    );
    const results = Promise.all(['a', 'b', 'c', 'd', 'e'].map((item) => batches.send(item)));
    // Two statements are on their way at once: the first two calls, each alone.
    expect(statements).toEqual([['a'], ['b']]);
    release();
    expect(await results).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(statements).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
  });
});
