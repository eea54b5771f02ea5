import { describe, expect, it, vi } from 'vitest';
import { createStore } from './create-store';

describe('createStore', () => {
  it('tells its listeners about a new value only', () => {
    const store = createStore({ count: 0 });
    const listener = vi.fn();
    const off = store.subscribe(listener);
    store.set((previous) => ({ count: previous.count + 1 }));
    expect(store.get()).toEqual({ count: 1 });
    store.set(store.get());
    expect(listener).toHaveBeenCalledTimes(1);
    off();
    store.set({ count: 2 });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('lets a listener unsubscribe while the listeners run', () => {
    const store = createStore(0);
    const second = vi.fn();
    const off = store.subscribe(() => off());
    store.subscribe(second);
    store.set(1);
    store.set(2);
    expect(second).toHaveBeenCalledTimes(2);
  });
});
