import type { Tabs } from '../../shared/form/model';

/**
 * Decides whether a tab group may switch from one tab to another. Spec 001 section 4: switching
 * first checks the conversion status of any attached file and is blocked with the 'File Upload
 * in Progress' modal while an upload is in progress or unprocessed. The documents feature
 * installs that check; until then every switch may go ahead.
 */
export type CanSwitchTab = (tabs: Tabs, from: string, to: string) => Promise<boolean>;

/**
 * Runs once a switch is allowed and confirmed, before the choice is saved: the documents feature
 * deletes the files of the tab being hidden here. A rejection stops the switch.
 */
export type BeforeTabSwitch = (tabs: Tabs, from: string, to: string) => Promise<void>;

/** The guard of every tab switch of one form session. */
export interface TabGuard {
  canSwitch: CanSwitchTab;
  beforeSwitch: BeforeTabSwitch;
  /** Installs the check; returns the function that removes it again. */
  setCanSwitch(next: CanSwitchTab): () => void;
  /** Installs the step before saving a switch; returns the function that removes it again. */
  setBeforeSwitch(next: BeforeTabSwitch): () => void;
}

const allowAll: CanSwitchTab = async () => true;
const nothingToDo: BeforeTabSwitch = async () => {};

export function createTabGuard(): TabGuard {
  let check = allowAll;
  let prepare = nothingToDo;
  return {
    canSwitch: (tabs, from, to) => check(tabs, from, to),
    beforeSwitch: (tabs, from, to) => prepare(tabs, from, to),
    setCanSwitch(next) {
      check = next;
      return () => {
        if (check === next) check = allowAll;
      };
    },
    setBeforeSwitch(next) {
      prepare = next;
      return () => {
        if (prepare === next) prepare = nothingToDo;
      };
    },
  };
}
