import { describe, expect, it } from 'vitest';
import { creditKeyFor, movedIndex } from './credit-keys';

const press = (key: string, extra: Partial<Parameters<typeof creditKeyFor>[0]> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...extra,
});
const row = { tagName: 'TR' };

describe('the evaluator grid keys', () => {
  it('moves with the arrows and j/k, and reviews with v, c, n, u', () => {
    expect(creditKeyFor(press('ArrowDown'), row, true)).toBe('down');
    expect(creditKeyFor(press('j'), row, true)).toBe('down');
    expect(creditKeyFor(press('ArrowUp'), row, true)).toBe('up');
    expect(creditKeyFor(press('k'), row, true)).toBe('up');
    expect(creditKeyFor(press('Home'), row, true)).toBe('first');
    expect(creditKeyFor(press('End'), row, true)).toBe('last');
    expect(creditKeyFor(press('v'), row, true)).toBe('verify');
    expect(creditKeyFor(press('c'), row, true)).toBe('correct');
    expect(creditKeyFor(press('n'), row, true)).toBe('not_on_transcript');
    expect(creditKeyFor(press('u'), row, true)).toBe('undo');
    expect(creditKeyFor(press('x'), row, true)).toBeNull();
  });

  it('gives a reader the moves but no review', () => {
    expect(creditKeyFor(press('j'), row, false)).toBe('down');
    for (const key of ['v', 'c', 'n', 'u']) expect(creditKeyFor(press(key), row, false)).toBeNull();
  });

  it('leaves keys typed into a field, with a modifier, or composed alone', () => {
    expect(creditKeyFor(press('v'), { tagName: 'INPUT', type: 'text' }, true)).toBeNull();
    expect(creditKeyFor(press('j'), { tagName: 'TEXTAREA' }, true)).toBeNull();
    expect(creditKeyFor(press('ArrowDown'), { tagName: 'SELECT' }, true)).toBeNull();
    expect(creditKeyFor(press('v', { ctrlKey: true }), row, true)).toBeNull();
    expect(creditKeyFor(press('j', { altKey: true }), row, true)).toBeNull();
    expect(creditKeyFor(press('V', { shiftKey: true }), row, true)).toBeNull();
    expect(creditKeyFor(press('v', { isComposing: true }), row, true)).toBeNull();
    expect(creditKeyFor(press('v', { defaultPrevented: true }), row, true)).toBeNull();
  });

  it('lets a held arrow move, but a held v does not verify course after course', () => {
    expect(creditKeyFor(press('ArrowDown', { repeat: true }), row, true)).toBe('down');
    expect(creditKeyFor(press('v', { repeat: true }), row, true)).toBeNull();
  });

  it('keeps the focus inside the list', () => {
    expect(movedIndex('down', 2, 3)).toBe(2);
    expect(movedIndex('down', 0, 3)).toBe(1);
    expect(movedIndex('up', 0, 3)).toBe(0);
    expect(movedIndex('last', 0, 3)).toBe(2);
    expect(movedIndex('first', 2, 3)).toBe(0);
    expect(movedIndex('down', 0, 0)).toBe(0);
  });
});
