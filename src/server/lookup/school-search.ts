import type { ListCategory } from '../../shared/lookup/lookup-api';
import type { LookupResult } from '../../shared/lookup/lookup-schemas';
import type { AppDatabase } from '../db/database';
import { listVersion, loadList, toResult } from './list-search';
import { buildSchoolIndex, type SchoolIndex } from './school-index';

/**
 * How often a server asks whether its lists changed: an import from another process (the
 * `lookup:import` command, another server's first start) is seen within this long.
 */
export const LIST_CHECK_EVERY_MS = 10_000;

interface Held {
  index: SchoolIndex;
  version: string;
  checkedAt: number;
  /** The check or rebuild under way, which later searches do not wait for. */
  refreshing: Promise<void> | null;
}

export interface SchoolSearch {
  search(category: ListCategory, typed: string, maxResults: number): Promise<LookupResult[]>;
  /** This server changed a list: the next search waits for the index built from it. */
  changed(category?: ListCategory): void;
}

/**
 * The school lists in memory (decision 039), one index per category, built on the first search
 * of it and rebuilt when its version in the database changes. A search waits only when there is
 * no index yet; a rebuild after a change runs while the old index keeps answering.
 */
export function createSchoolSearch(
  db: AppDatabase,
  options: { checkEveryMs?: number; now?: () => number } = {},
): SchoolSearch {
  const checkEveryMs = options.checkEveryMs ?? LIST_CHECK_EVERY_MS;
  const now = options.now ?? Date.now;
  const held = new Map<ListCategory, Held>();
  const loading = new Map<ListCategory, Promise<Held>>();

  async function load(category: ListCategory): Promise<Held> {
    const checkedAt = now();
    const { rows, version } = await loadList(db, category);
    return { index: buildSchoolIndex(rows), version, checkedAt, refreshing: null };
  }

  function first(category: ListCategory): Promise<Held> {
    let pending = loading.get(category);
    if (!pending) {
      pending = load(category)
        .then((loaded) => {
          held.set(category, loaded);
          return loaded;
        })
        .finally(() => loading.delete(category));
      loading.set(category, pending);
    }
    return pending;
  }

  async function refresh(category: ListCategory, current: Held): Promise<void> {
    try {
      const checkedAt = now();
      if ((await listVersion(db, category)) === current.version) {
        current.checkedAt = checkedAt;
        return;
      }
      const loaded = await load(category);
      // Only the newest answer replaces the index: `changed` may have started another refresh.
      if (held.get(category) === current) held.set(category, loaded);
    } catch {
      // A database that cannot answer now leaves the index it has; the next interval asks again.
      current.checkedAt = now();
    } finally {
      current.refreshing = null;
    }
  }

  return {
    async search(category, typed, maxResults) {
      let current = held.get(category);
      if (!current) current = await first(category);
      else if (!current.refreshing && now() - current.checkedAt >= checkEveryMs) {
        current.refreshing = refresh(category, current);
      }
      return current.index.search(typed, maxResults).map(toResult);
    },
    changed(category) {
      for (const key of [...held.keys()]) {
        if (category === undefined || key === category) held.delete(key);
      }
    },
  };
}
