import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalCopy, LOCAL_COPY_WRITE_DELAY_MS, type StorageLike } from './local-copy';

function countingStorage(): StorageLike & { data: Map<string, string>; writes: number } {
  const data = new Map<string, string>();
  const storage = {
    data,
    writes: 0,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => {
      storage.writes += 1;
      data.set(key, value);
    },
    removeItem: (key: string) => {
      data.delete(key);
    },
  };
  return storage;
}

const stored = (storage: StorageLike, key = 'k') => JSON.parse(storage.getItem(key) ?? '{}');

describe('createLocalCopy', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes a burst of keystrokes to storage once, after the write delay', () => {
    const storage = countingStorage();
    const copy = createLocalCopy('k', storage);
    for (const value of ['A', 'Ad', 'Ada']) copy.write({ first_name: value });
    copy.write({ last_name: 'L' });
    expect(storage.writes).toBe(0);
    // Held in memory meanwhile, and read back with the stored copy.
    expect(copy.load()).toEqual({ first_name: 'Ada', last_name: 'L' });
    vi.advanceTimersByTime(LOCAL_COPY_WRITE_DELAY_MS);
    expect(storage.writes).toBe(1);
    expect(stored(storage)).toEqual({ first_name: 'Ada', last_name: 'L' });
  });

  it('writes at once when flushed, and merges per key with what another tab stored', () => {
    const storage = countingStorage();
    const copy = createLocalCopy('k', storage);
    copy.write({ first_name: 'Ada' });
    storage.setItem('k', JSON.stringify({ last_name: 'Lovelace', first_name: 'Old' }));
    copy.flush();
    expect(stored(storage)).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(createLocalCopy('k', storage).load()).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    // Nothing is left to write when the delay ends.
    const writes = storage.writes;
    vi.advanceTimersByTime(LOCAL_COPY_WRITE_DELAY_MS);
    expect(storage.writes).toBe(writes);
  });

  it('forgets saved keys held in memory too, unless they changed since', () => {
    const storage = countingStorage();
    const copy = createLocalCopy('k', storage);
    copy.write({ first_name: 'Ada', last_name: 'Lovelace' });
    copy.forget({ first_name: 'Ada', last_name: 'Byron' });
    expect(copy.load()).toEqual({ last_name: 'Lovelace' });
    expect(stored(storage)).toEqual({ last_name: 'Lovelace' });
  });

  it('drops what it holds when cleared', () => {
    const storage = countingStorage();
    const copy = createLocalCopy('k', storage);
    copy.write({ first_name: 'Ada' });
    copy.clear();
    vi.advanceTimersByTime(LOCAL_COPY_WRITE_DELAY_MS);
    expect(storage.getItem('k')).toBeNull();
    expect(copy.load()).toEqual({});
  });
});
