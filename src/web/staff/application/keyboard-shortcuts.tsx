import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { cx } from '../../ui/cx';
import consoleStyles from '../shell/console.module.css';
import styles from './application-page.module.css';
import {
  SHORTCUT_HELP,
  SHORTCUTS_STORAGE_KEY,
  type ShortcutAction,
  shortcutFor,
  shortcutsEnabledFrom,
} from './shortcut-keys';

/** The page's keys, listed where the reader can find them, with the switch that turns them off. */
export function ShortcutHelp({ preference }: { preference: ShortcutPreference }) {
  const switchId = useId();
  return (
    <details className={styles.shortcuts}>
      <summary>Keyboard shortcuts</summary>
      <p className={consoleStyles.muted}>
        Press the key alone, outside a text field. A screen reader in browse mode may need its
        pass-through key first.
      </p>
      <dl className={styles.keys}>
        {SHORTCUT_HELP.map((entry) => (
          <div key={entry.key}>
            <dt>
              <kbd>{entry.key.toLowerCase()}</kbd>
            </dt>
            <dd>{entry.does}</dd>
          </div>
        ))}
      </dl>
      <div className={cx(consoleStyles.checkbox, styles.shortcutSwitch)}>
        <input
          id={switchId}
          type="checkbox"
          checked={preference.enabled}
          onChange={(event) => preference.setEnabled(event.target.checked)}
        />
        <label htmlFor={switchId}>Use these keyboard shortcuts</label>
      </div>
    </details>
  );
}

export interface ShortcutPreference {
  enabled: boolean;
  setEnabled: (enabled: boolean) => void;
}

/** Whether the reader wants the keys, kept in this browser; on where storage is refused. */
export function useShortcutPreference(): ShortcutPreference {
  const [enabled, setState] = useState(() => {
    try {
      return shortcutsEnabledFrom(window.localStorage.getItem(SHORTCUTS_STORAGE_KEY));
    } catch {
      return true;
    }
  });
  const setEnabled = useCallback((next: boolean) => {
    setState(next);
    try {
      window.localStorage.setItem(SHORTCUTS_STORAGE_KEY, next ? 'on' : 'off');
    } catch {
      // Private browsing may refuse storage: the choice then lasts for this page only.
    }
  }, []);
  return { enabled, setEnabled };
}

/** Single-letter keys for the page's commands; see shortcutFor for when they are left alone. */
export function useShortcuts(enabled: boolean, onShortcut: (action: ShortcutAction) => void): void {
  const latest = useRef(onShortcut);
  useLayoutEffect(() => {
    latest.current = onShortcut;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const element = event.target instanceof HTMLElement ? event.target : null;
      const action = shortcutFor(
        event,
        element && {
          tagName: element.tagName,
          isContentEditable: element.isContentEditable,
          type: element instanceof HTMLInputElement ? element.type : undefined,
          inDialog: element.closest('[role="dialog"], [role="alertdialog"]') !== null,
        },
      );
      if (!action) return;
      event.preventDefault();
      latest.current(action);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
