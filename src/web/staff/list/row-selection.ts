import { useState } from 'react';

/*
 * The rows ticked in the list, for the bulk actions. A selection belongs to one search and set
 * of filters: another list starts with nothing ticked, so a mark never reaches rows no longer
 * shown. It carries across the list's pages.
 */

export interface RowSelection {
  ids: readonly string[];
  isSelected(id: string): boolean;
  toggle(id: string, on: boolean): void;
  /** Ticks or unticks every row of the page shown. */
  togglePage(ids: readonly string[], on: boolean): void;
  clear(): void;
}

/** The ids after ticking (or unticking) some, in the order first ticked. */
export function toggledIds(ids: readonly string[], some: readonly string[], on: boolean): string[] {
  if (on) return [...new Set([...ids, ...some])];
  const off = new Set(some);
  return ids.filter((id) => !off.has(id));
}

/** Whether the page's rows are all ticked, some of them, or none. */
export function pageSelectionState(
  selected: readonly string[],
  page: readonly string[],
): 'all' | 'some' | 'none' {
  const chosen = new Set(selected);
  const ticked = page.filter((id) => chosen.has(id)).length;
  if (ticked === 0 || page.length === 0) return 'none';
  return ticked === page.length ? 'all' : 'some';
}

export function useRowSelection(listSearch: string): RowSelection {
  const [state, setState] = useState<{ search: string; ids: readonly string[] }>({
    search: listSearch,
    ids: [],
  });
  const ids = state.search === listSearch ? state.ids : [];
  const set = (next: readonly string[]) => setState({ search: listSearch, ids: next });
  return {
    ids,
    isSelected: (id) => ids.includes(id),
    toggle: (id, on) => set(toggledIds(ids, [id], on)),
    togglePage: (page, on) => set(toggledIds(ids, page, on)),
    clear: () => set([]),
  };
}
