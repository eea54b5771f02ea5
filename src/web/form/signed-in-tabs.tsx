import { Tabs as RadixTabs } from 'radix-ui';
import { type RefObject, useId, useRef } from 'react';
import type { Tabs } from '../../shared/form/model';
import { cx } from '../ui/cx';
import { type HeldFocus, useTakeOverFocus } from '../ui/focus-hand-over';
import styles from './form.module.css';
import { useFormContext } from './form-context';
import { useChosenTab } from './hooks';
import { ItemList, type ItemListProps } from './items';

/** A tab group as signed-in applicants see it: every tab, switched through the form's action. */
export default function SignedInTabs({
  tabs,
  heldFocus,
  ...place
}: Omit<ItemListProps, 'items'> & { tabs: Tabs; heldFocus?: RefObject<HeldFocus | null> }) {
  const { actions } = useFormContext();
  useTakeOverFocus(heldFocus);
  const chosen = useChosenTab(tabs);
  const headingId = useId();
  const tabList = useRef<HTMLDivElement>(null);
  const inner = { ...place, depth: place.depth + 1 };

  async function switchTo(next: string) {
    await actions.switchTab(tabs, next);
    // A switch that asked first closed its dialog, which returns the focus to the tab pressed;
    // a browser that does not focus a clicked button leaves it nowhere, so it goes to the tab
    // chosen now (the new one, or the old one when cancelled).
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if (active !== null && active !== document.body) return;
      tabList.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
    });
  }

  return (
    <RadixTabs.Root
      value={chosen}
      onValueChange={(next) => {
        void switchTo(next);
      }}
      activationMode="manual"
      className={cx(styles.tabs, styles.wide)}
    >
      <h3 id={headingId} className={styles.repeatTitle}>
        {tabs.label}
      </h3>
      <RadixTabs.List ref={tabList} aria-labelledby={headingId} className={styles.tabList}>
        {tabs.tabs.map((tab) => (
          <RadixTabs.Trigger key={tab.id} value={tab.id} className={styles.tabTrigger}>
            {tab.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {tabs.tabs.map((tab) => (
        <RadixTabs.Content key={tab.id} value={tab.id} className={styles.tabPanel}>
          <div className={styles.stack}>
            <ItemList items={tab.items} {...inner} />
          </div>
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
