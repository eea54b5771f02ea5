import { describe, expect, it } from 'vitest';
import { firstFieldWithErrors, shownErrors, uniqueMessages } from './form-state';

describe('uniqueMessages', () => {
  it('keeps the first of each message in order', () => {
    expect(uniqueMessages(['a', 'b', 'a'], undefined, ['c', 'b'])).toEqual(['a', 'b', 'c']);
    expect(uniqueMessages()).toEqual([]);
  });
});

describe('shownErrors', () => {
  const rules = { username: ['Your email address must be valid.'] };

  it('hides rule errors until the field is revealed', () => {
    expect(shownErrors('username', rules, {}, false)).toEqual([]);
    expect(shownErrors('username', rules, {}, true)).toEqual(['Your email address must be valid.']);
  });

  it("shows an action's message at once, in place of the rule errors", () => {
    const action = {
      username: ['You must provide a valid email address to resend a confirmation code.'],
    };
    expect(shownErrors('username', rules, action, false)).toEqual(action.username);
    expect(shownErrors('username', rules, action, true)).toEqual(action.username);
  });

  it('de-duplicates', () => {
    expect(shownErrors('password', { password: ['x', 'x'] }, {}, true)).toEqual(['x']);
  });
});

describe('firstFieldWithErrors', () => {
  it('follows the screen order', () => {
    expect(
      firstFieldWithErrors(['username', 'password'], { password: ['x'], username: ['y'] }),
    ).toBe('username');
    expect(firstFieldWithErrors(['username', 'password'], { password: ['x'], username: [] })).toBe(
      'password',
    );
    expect(firstFieldWithErrors(['username', 'password'], {})).toBeNull();
  });
});
