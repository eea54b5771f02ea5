import { describe, expect, it } from 'vitest';
import { isListSort } from './application-filters';
import { COLUMNS, SORTABLE } from './list-columns';

describe('the columns of the list', () => {
  it('are each shown once', () => {
    const keys = COLUMNS.map((column) => column.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('sort only by what the server sorts by', () => {
    for (const column of SORTABLE) expect(isListSort(column.sort)).toBe(true);
    for (const column of COLUMNS) {
      if (column.sort !== null) expect(column.sort).toBe(column.key);
    }
  });

  it('sort by decision as soon as the server lists it among its sorts', () => {
    const decision = COLUMNS.find((column) => column.key === 'decision');
    expect(decision?.sort).toBe(isListSort('decision') ? 'decision' : null);
    expect(SORTABLE.map((column) => column.key)).toEqual(
      expect.arrayContaining(['name', 'status', 'submitted_at', 'last_activity']),
    );
  });
});
