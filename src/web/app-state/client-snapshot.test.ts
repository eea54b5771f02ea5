import { describe, expect, it } from 'vitest';
import type { ProfileResponse } from '../../shared/api/profile';
import { lastPageTarget, sessionIdOf, snapshotFromProfile, visitFormPage } from './client-snapshot';

const profile: ProfileResponse = {
  answer: {},
  document_answer: {},
  username: 'ada@example.com',
  last_page: '/education',
  successful_login: [{ logged_in_at: 'a' }, { logged_in_at: 'b' }],
  web_status: [{ web_status: 'started' }, { web_status: 'validating' }],
};

describe('client snapshot', () => {
  it('starts from the profile', () => {
    expect(snapshotFromProfile(profile)).toMatchObject({
      isLoggedIn: true,
      numLogins: 2,
      webStatus: 'validating',
      lastPage: '/education',
      hasChangedPage: false,
    });
    expect(snapshotFromProfile(null)).toMatchObject({ isLoggedIn: false, webStatus: null });
    expect(sessionIdOf(profile)).not.toBe(sessionIdOf({ ...profile, successful_login: [] }));
  });

  it('restores the saved last page on the first form page only', () => {
    const snapshot = snapshotFromProfile(profile);
    expect(lastPageTarget(snapshot, '/about')).toBe('/education');
    expect(lastPageTarget(snapshot, '/education')).toBeNull();
    expect(lastPageTarget({ ...snapshot, lastPageHandled: true }, '/about')).toBeNull();
    expect(lastPageTarget({ ...snapshot, hasChangedPage: true }, '/about')).toBeNull();
    expect(lastPageTarget({ ...snapshot, lastPage: '/login' }, '/about')).toBeNull();
    expect(lastPageTarget(snapshotFromProfile(null), '/about')).toBeNull();
  });

  it('counts a move to another form page as a page change, not the first visit', () => {
    let snapshot = snapshotFromProfile(profile);
    let visit = visitFormPage(snapshot, '/about');
    expect(visit.changed).toBe(false);
    snapshot = visit.next;
    visit = visitFormPage(snapshot, '/about');
    expect(visit.changed).toBe(false);
    visit = visitFormPage(snapshot, '/final-steps');
    expect(visit.changed).toBe(true);
    expect(visit.next).toMatchObject({ hasChangedPage: true, lastPage: '/final-steps' });
  });
});
