import { type ComponentType, useEffect, useSyncExternalStore } from 'react';
import { createStore } from '../state/create-store';

export interface OnDemandComponent<P> {
  /** Starts loading (when the pointer or focus comes near, say); calling it again costs nothing. */
  preload(): void;
  /** The component once loaded, else null; `wanted` starts the load. */
  useLoaded(wanted: boolean): ComponentType<P> | null;
}

interface Loader<P> {
  preload(): void;
  subscribe(listener: () => void): () => void;
  current(): ComponentType<P> | null;
}

function useLoadedComponent<P>(loader: Loader<P>, wanted: boolean): ComponentType<P> | null {
  const loaded = useSyncExternalStore(loader.subscribe, loader.current, loader.current);
  useEffect(() => {
    if (wanted) loader.preload();
  }, [wanted, loader]);
  return loaded;
}

/**
 * A component kept out of a page's first load and fetched when first needed. Unlike React.lazy, a
 * failed load (offline, or a deployment replaced the file) shows nothing and is tried again at the
 * next need, instead of taking the page down through the error boundary.
 */
export function onDemand<P>(
  load: () => Promise<{ default: ComponentType<P> }>,
): OnDemandComponent<P> {
  const component = createStore<ComponentType<P> | null>(null);
  let loading = false;
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
        },
      );
    },
    subscribe: component.subscribe,
    current: component.get,
  };
  return {
    preload: loader.preload,
    useLoaded: (wanted) => useLoadedComponent(loader, wanted),
  };
}
