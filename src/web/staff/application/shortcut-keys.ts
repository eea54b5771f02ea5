import { isTypingTarget, type ShortcutKeyPress, type ShortcutTarget } from '../common/key-presses';

export type ShortcutAction = 'next' | 'previous' | 'pdf';

/** The keys, as `aria-keyshortcuts` names them and the help lists them. */
export const SHORTCUT_KEYS: Record<ShortcutAction, string> = {
  next: 'J',
  previous: 'K',
  pdf: 'O',
};

/**
 * Where the console keeps whether the reader wants the single-letter keys (WCAG 2.1.4: a reader
 * whose speech input or tremor presses letters by accident turns them off).
 */
export const SHORTCUTS_STORAGE_KEY = 'tp_staff_shortcuts';

/** On unless the reader turned them off. */
export function shortcutsEnabledFrom(stored: string | null): boolean {
  return stored !== 'off';
}

export const SHORTCUT_HELP: ReadonlyArray<{ key: string; does: string }> = [
  { key: SHORTCUT_KEYS.next, does: 'Next application in the list' },
  { key: SHORTCUT_KEYS.previous, does: 'Previous application in the list' },
  { key: SHORTCUT_KEYS.pdf, does: 'Download the application PDF' },
];

/**
 * The page's command for a key press, or null. Single letters only, never with a modifier: the
 * browser's and the screen reader's own keys (Ctrl+K, Alt+J, Shift+letters in browse mode) keep
 * working, and a held key does not race through the queue.
 */
export function shortcutFor(
  press: ShortcutKeyPress,
  target: ShortcutTarget | null,
): ShortcutAction | null {
  if (press.defaultPrevented || press.isComposing || press.repeat) return null;
  if (press.ctrlKey || press.metaKey || press.altKey || press.shiftKey) return null;
  if (isTypingTarget(target)) return null;
  switch (press.key) {
    case 'j':
      return 'next';
    case 'k':
      return 'previous';
    case 'o':
      return 'pdf';
    default:
      return null;
  }
}
