import type { Tabs } from '../../shared/form/model';

/**
 * Decides whether a tab group may switch from one tab to another. Spec 001 section 4: switching
 * first checks the conversion status of any attached file and is blocked with the 'File Upload
 * in Progress' modal while an upload is in progress or unprocessed. The documents feature
 * installs that check with `setCanSwitchTab`; until then every switch may go ahead.
 */
export type CanSwitchTab = (tabs: Tabs, from: string, to: string) => Promise<boolean>;

/**
 * Runs once a switch is allowed and confirmed, before the choice is saved: the documents feature
 * deletes the files of the tab being hidden here. A rejection stops the switch.
 */
export type BeforeTabSwitch = (tabs: Tabs, from: string, to: string) => Promise<void>;

const allowAll: CanSwitchTab = async () => true;
let check: CanSwitchTab = allowAll;

const nothingToDo: BeforeTabSwitch = async () => {};
let prepare: BeforeTabSwitch = nothingToDo;

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

export function beforeTabSwitch(tabs: Tabs, from: string, to: string): Promise<void> {
  return prepare(tabs, from, to);
}

/** Installs the step before saving a switch; returns the function that removes it again. */
export function setBeforeTabSwitch(next: BeforeTabSwitch): () => void {
  prepare = next;
  return () => {
    if (prepare === next) prepare = nothingToDo;
  };
}
