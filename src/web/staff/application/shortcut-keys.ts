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

/** What a key press needs for the shortcut decision; a KeyboardEvent has all of it. */
export interface ShortcutKeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  repeat?: boolean;
  isComposing?: boolean;
  defaultPrevented?: boolean;
}

/** Where the key went, as far as typing is concerned. */
export interface ShortcutTarget {
  tagName: string;
  isContentEditable?: boolean;
  /** An input's type: a checkbox or a button takes no text, a text box does. */
  type?: string;
  /** Inside a dialog (step-up, the idle prompt), keys belong to the dialog. */
  inDialog?: boolean;
}

const NON_TEXT_INPUTS: ReadonlySet<string> = new Set([
  'button',
  'checkbox',
  'radio',
  'reset',
  'submit',
  'image',
  'file',
  'color',
  'range',
]);

/** Whether the key would be typed into (or pick in) a field rather than be a command. */
export function isTypingTarget(target: ShortcutTarget | null): boolean {
  if (!target) return false;
  if (target.isContentEditable || target.inDialog) return true;
  const tag = target.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has((target.type ?? 'text').toLowerCase());
  return false;
}

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
