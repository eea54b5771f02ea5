import { describe, expect, it } from 'vitest';
import { isToastMessage } from './toast-types';

describe('isToastMessage', () => {
  it('accepts the navigation-state toast shape', () => {
    expect(isToastMessage({ severity: 'success', title: 'Saved' })).toBe(true);
    expect(isToastMessage({ severity: 'error', title: 'Oops', description: 'Try again.' })).toBe(
      true,
    );
  });

  it('rejects anything else', () => {
    expect(isToastMessage(null)).toBe(false);
    expect(isToastMessage('Saved')).toBe(false);
    expect(isToastMessage({ severity: 'info', title: 'Saved' })).toBe(false);
    expect(isToastMessage({ severity: 'success' })).toBe(false);
    expect(isToastMessage({ severity: 'success', title: 'Saved', description: 3 })).toBe(false);
  });
});
