import { describe, expect, it } from 'vitest';
import { isTypingTarget, type ShortcutKeyPress } from '../common/key-presses';
import { shortcutFor, shortcutsEnabledFrom } from './shortcut-keys';

const press = (key: string, more: Partial<ShortcutKeyPress> = {}): ShortcutKeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...more,
});

const body = { tagName: 'BODY' };

describe('keyboard shortcuts of the application page', () => {
  it('maps j, k and o to next, previous and the PDF', () => {
    expect(shortcutFor(press('j'), body)).toBe('next');
    expect(shortcutFor(press('k'), body)).toBe('previous');
    expect(shortcutFor(press('o'), body)).toBe('pdf');
    expect(shortcutFor(press('x'), body)).toBeNull();
    expect(shortcutFor(press('j'), null)).toBe('next');
  });

  it('leaves keys with a modifier to the browser and the screen reader', () => {
    for (const modifier of ['ctrlKey', 'metaKey', 'altKey', 'shiftKey'] as const) {
      expect(shortcutFor(press('j', { [modifier]: true }), body)).toBeNull();
    }
    // Caps lock or Shift gives "J": not a shortcut either.
    expect(shortcutFor(press('J'), body)).toBeNull();
  });

  it('ignores held keys, composition and keys something else already handled', () => {
    expect(shortcutFor(press('j', { repeat: true }), body)).toBeNull();
    expect(shortcutFor(press('j', { isComposing: true }), body)).toBeNull();
    expect(shortcutFor(press('j', { defaultPrevented: true }), body)).toBeNull();
  });

  it('are on until the reader turns them off', () => {
    expect(shortcutsEnabledFrom(null)).toBe(true);
    expect(shortcutsEnabledFrom('on')).toBe(true);
    expect(shortcutsEnabledFrom('off')).toBe(false);
  });

  it('never takes a key typed into a field, a list box or a dialog', () => {
    expect(shortcutFor(press('j'), { tagName: 'INPUT', type: 'text' })).toBeNull();
    expect(shortcutFor(press('j'), { tagName: 'input' })).toBeNull();
    expect(shortcutFor(press('k'), { tagName: 'TEXTAREA' })).toBeNull();
    expect(shortcutFor(press('o'), { tagName: 'SELECT' })).toBeNull();
    expect(shortcutFor(press('o'), { tagName: 'DIV', isContentEditable: true })).toBeNull();
    expect(shortcutFor(press('j'), { tagName: 'BUTTON', inDialog: true })).toBeNull();
    // A button or a checkbox takes no text: the key is a command there.
    expect(shortcutFor(press('j'), { tagName: 'BUTTON' })).toBe('next');
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'search' })).toBe(true);
  });
});
