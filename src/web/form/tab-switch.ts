import type { Tabs } from '../../shared/form/model';

/**
 * Decides whether a tab group may switch from one tab to another. Spec 001 section 4: switching
 * first checks the conversion status of any attached file and is blocked with the 'File Upload
 * in Progress' modal while an upload is in progress or unprocessed. The documents feature
 * installs that check with `setCanSwitchTab`; until then every switch may go ahead.
 */
export type CanSwitchTab = (tabs: Tabs, from: string, to: string) => Promise<boolean>;

const allowAll: CanSwitchTab = async () => true;
let check: CanSwitchTab = allowAll;

export function canSwitchTab(tabs: Tabs, from: string, to: string): Promise<boolean> {
  return check(tabs, from, to);
}

/** Installs the check; returns the function that removes it again. */
export function setCanSwitchTab(next: CanSwitchTab): () => void {
  check = next;
  return () => {
    if (check === next) check = allowAll;
  };
}
