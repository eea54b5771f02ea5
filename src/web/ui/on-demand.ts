import { type ComponentType, useEffect, useSyncExternalStore } from 'react';
import { createStore } from '../state/create-store';

export interface OnDemandComponent<P> {
  /** Starts loading (when the pointer or focus comes near, say); calling it again costs nothing. */
  preload(): void;
  /** The component once loaded, else null; `wanted` starts the load (see `want`). */
  useLoaded(wanted: boolean): ComponentType<P> | null;
  /**
   * Loads, and after a failure tries again (after a wait, and when the browser is back online)
   * until it has loaded or the returned function is called. `useLoaded(true)` does this.
   */
  want(): () => void;
}

interface Loader<P> {
  preload(): void;
  /** Loads, and keeps trying after failures while anything on screen wants it; undoes that. */
  want(): () => void;
  subscribe(listener: () => void): () => void;
  current(): ComponentType<P> | null;
}

/** The first wait before trying a failed load again, doubled each time up to the last. */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

function useLoadedComponent<P>(loader: Loader<P>, wanted: boolean): ComponentType<P> | null {
  const loaded = useSyncExternalStore(loader.subscribe, loader.current, loader.current);
  useEffect(() => (wanted ? loader.want() : undefined), [wanted, loader]);
  return loaded;
}

/**
 * A component kept out of a page's first load and fetched when first needed. Unlike React.lazy, a
 * failed load (offline, or a deployment replaced the file) shows nothing instead of taking the
 * page down through the error boundary, and is tried again: at the next need, and, while a part
 * of the page on screen wants it (the inactivity prompt, a file question's upload control), after
 * a wait that doubles up to 30 s and as soon as the browser is back online.
 */
export function onDemand<P>(
  load: () => Promise<{ default: ComponentType<P> }>,
): OnDemandComponent<P> {
  const component = createStore<ComponentType<P> | null>(null);
  let loading = false;
  let wanting = 0;
  let retryInMs = FIRST_RETRY_MS;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const retryNow = () => {
    clearTimeout(retry);
    retry = undefined;
    globalThis.removeEventListener?.('online', retryNow);
    loader.preload();
  };
  const retryLater = () => {
    if (wanting === 0 || retry) return;
    retry = setTimeout(retryNow, retryInMs);
    retryInMs = Math.min(retryInMs * 2, LONGEST_RETRY_MS);
    globalThis.addEventListener?.('online', retryNow);
  };
  const loader: Loader<P> = {
    preload() {
      if (component.get() || loading) return;
      loading = true;
      load().then(
        (module) => {
          loading = false;
          // Through an updater: a component is a function, which `set` would call as one.
          component.set(() => module.default);
        },
        () => {
          loading = false;
          retryLater();
        },
      );
    },
    want() {
      wanting += 1;
      loader.preload();
      return () => {
        wanting -= 1;
        if (wanting > 0) return;
        clearTimeout(retry);
        retry = undefined;
        globalThis.removeEventListener?.('online', retryNow);
      };
    },
    subscribe: component.subscribe,
    current: component.get,
  };
  return {
    preload: loader.preload,
    useLoaded: (wanted) => useLoadedComponent(loader, wanted),
    want: loader.want,
  };
}
