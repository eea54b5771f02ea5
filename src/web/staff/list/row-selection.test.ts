import { describe, expect, it } from 'vitest';
import { pageSelectionState, toggledIds } from './row-selection';

describe('the rows ticked in the list', () => {
  it('ticks and unticks, keeping the order first ticked and no id twice', () => {
    expect(toggledIds(['a'], ['b', 'a', 'c'], true)).toEqual(['a', 'b', 'c']);
    expect(toggledIds(['a', 'b', 'c'], ['b'], false)).toEqual(['a', 'c']);
  });

  it('says whether the page is all, partly or not ticked', () => {
    expect(pageSelectionState(['a', 'b'], ['a', 'b'])).toBe('all');
    expect(pageSelectionState(['a', 'x'], ['a', 'b'])).toBe('some');
    expect(pageSelectionState(['x'], ['a', 'b'])).toBe('none');
    expect(pageSelectionState([], [])).toBe('none');
  });
});
