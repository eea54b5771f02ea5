/*
 * What the console's single-letter keys (the application page's, the evaluator's) decide on: the
 * key press, and whether it went into a field, where it is typing and never a command.
 */

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
