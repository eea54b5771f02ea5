import { useCallback, useSyncExternalStore } from 'react';

/**
 * A value outside React that components and plain code both read and change. Every small store
 * of the browser app is one of these; the per-key answer store keeps its own listeners because
 * a keystroke must wake only the fields it touches.
 */
export interface Store<T> {
  get(): T;
  /** Replaces the value; listeners run only when it is a different value (Object.is). */
  set(next: T | ((previous: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const resolved = typeof next === 'function' ? (next as (previous: T) => T)(value) : next;
      if (Object.is(resolved, value)) return;
      value = resolved;
      // A copy: a listener may unsubscribe (or subscribe another) while this runs.
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

const whole = <T>(value: T) => value;

/** One selected part of a store; the component re-renders only when that part changes. */
export function useStore<T, S = T>(
  store: Store<T>,
  select: (value: T) => S = whole as (value: T) => S,
): S {
  const read = useCallback(() => select(store.get()), [store, select]);
  return useSyncExternalStore(store.subscribe, read, read);
}
