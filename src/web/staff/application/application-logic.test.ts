import { describe, expect, it } from 'vitest';
import { applicationPath } from '../common/application-paths';
import {
  applicantName,
  listPath,
  listQueryOf,
  positionText,
  queueEndMessage,
  withListPage,
} from './application-logic';

describe('the list the reader came from', () => {
  it('keeps only what the list understands, in order, repeated filters included', () => {
    expect(listQueryOf('?status=submitted&status=started&q=lopez&utm=x&sort=name&page=2')).toBe(
      'status=submitted&status=started&q=lopez&sort=name&page=2',
    );
    // The home page's lookup of one address is not a list.
    expect(listQueryOf('email=a%40example.com')).toBe('');
    expect(listQueryOf(new URLSearchParams('q=&term=FA2026'))).toBe('term=FA2026');
  });

  it('carries the page a neighbour is on', () => {
    expect(withListPage('status=submitted&page=2', 3)).toBe('status=submitted&page=3');
    expect(withListPage('status=submitted', 1)).toBe('status=submitted');
    expect(withListPage('status=submitted', 2)).toBe('status=submitted&page=2');
    expect(withListPage('q=x', null)).toBe('q=x');
  });

  it('makes the addresses of an application and of the list', () => {
    expect(applicationPath('abc', 'q=x')).toBe('/staff/applications/abc?q=x');
    expect(applicationPath('abc', '')).toBe('/staff/applications/abc');
    expect(listPath('q=x&page=2')).toBe('/staff?q=x&page=2');
    expect(listPath('')).toBe('/staff');
  });

  it('says why a step goes nowhere', () => {
    expect(queueEndMessage('next', { position: 3 }, false)).toBe(
      'This is the last application in the list.',
    );
    expect(queueEndMessage('previous', { position: 1 }, false)).toBe(
      'This is the first application in the list.',
    );
    expect(queueEndMessage('next', { position: null }, false)).toMatch(/not in the list/);
    expect(queueEndMessage('next', undefined, false)).toMatch(/^Still finding/);
    expect(queueEndMessage('next', undefined, true)).toMatch(/could not be found/);
  });

  it('says the place in the list, or nothing outside it', () => {
    expect(positionText(3, 120)).toBe('3 of 120');
    expect(positionText(1200, 4500)).toBe('1,200 of 4,500');
    expect(positionText(null, 120)).toBe('');
    expect(positionText(1, 0)).toBe('');
  });
});

describe('the applicant', () => {
  it('is named from the answers, or not at all', () => {
    expect(applicantName({ first_name: ' Maria ', last_name: 'Lopez' })).toBe('Maria Lopez');
    expect(applicantName({ first_name: 'Maria', last_name: true })).toBe('Maria');
    expect(applicantName({})).toBeNull();
  });
});
