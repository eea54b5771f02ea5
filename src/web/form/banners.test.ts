import { describe, expect, it } from 'vitest';
import { bannersFor } from './banners';

const base = {
  isLoggedIn: true,
  webStatus: 'started' as const,
  numLogins: 1,
  hasChangedPage: false,
};
const titles = (snapshot: Parameters<typeof bannersFor>[0], name = 'Maria') =>
  bannersFor(snapshot, name).map((banner) => banner.title);

describe('banner rules (spec 001 section 1)', () => {
  it('welcomes a first log-in until the first page change', () => {
    expect(titles(base)).toEqual(['Welcome to your application!']);
    expect(titles({ ...base, hasChangedPage: true })).toEqual([]);
  });

  it('welcomes back a returning student until the first page change', () => {
    expect(titles({ ...base, numLogins: 2 })).toEqual(['Welcome Back']);
    expect(titles({ ...base, numLogins: 5, hasChangedPage: true })).toEqual([]);
  });

  it('always thanks a student who submitted, by first name', () => {
    expect(titles({ ...base, webStatus: 'submitted', hasChangedPage: true })).toEqual([
      'Thanks, Maria!',
    ]);
    expect(titles({ ...base, webStatus: 'submitted' }, '  ')).toEqual(['Thanks!']);
  });

  it('always shows both anonymous banners to a logged-out visitor', () => {
    const anonymous = { isLoggedIn: false, webStatus: null, numLogins: 0, hasChangedPage: true };
    expect(titles(anonymous)).toEqual(['First time here?', 'Returning to your application?']);
  });
});
