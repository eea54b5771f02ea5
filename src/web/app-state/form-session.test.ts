import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProfileResponse } from '../../shared/api/profile';
import { createQueryClient } from '../query-client';
import { createFormSession } from './form-session';
import { ANONYMOUS_ANSWERS_KEY, type StorageLike, unsavedAnswersKey } from './local-copy';

/** The page a session lives in: its window and document, and the browser's storage. */
function fakePage() {
  const data = new Map<string, string>();
  const storage: StorageLike = {
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => {
      data.set(key, value);
    },
    removeItem: (key) => {
      data.delete(key);
    },
  };
  const document = Object.assign(new EventTarget(), {
    visibilityState: 'visible' as DocumentVisibilityState,
  });
  const window = new EventTarget();
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('window', window);
  vi.stubGlobal('document', document);
  return {
    data,
    leave: () => window.dispatchEvent(new Event('pagehide')),
    hide: () => {
      document.visibilityState = 'hidden';
      document.dispatchEvent(new Event('visibilitychange'));
    },
  };
}

function profile(username: string): ProfileResponse {
  return {
    answer: { last_name: 'Lovelace' },
    document_answer: {},
    username,
    last_page: null,
    successful_login: [{ logged_in_at: '2026-11-22T00:00:00.000Z' }],
    web_status: [{ web_status: 'started' }],
  };
}

/** A new session in a new page load, reading what the last one left in storage. */
function reload(answersOf: ProfileResponse | null) {
  const session = createFormSession(createQueryClient());
  session.sync(answersOf);
  return session;
}

describe('the answers kept in browser storage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('an anonymous draft typed just before the tab closes is there after a reload', () => {
    const page = fakePage();
    const session = reload(null);
    session.answers.set('first_name', 'Ada');
    // Typing does not write storage at each keystroke...
    expect(page.data.has(ANONYMOUS_ANSWERS_KEY)).toBe(false);
    // ...leaving the page does, at once.
    page.leave();
    expect(reload(null).answers.get('first_name')).toBe('Ada');
  });

  it('an anonymous draft is written when the tab is hidden (a phone switching apps)', () => {
    const page = fakePage();
    const session = reload(null);
    session.answers.set('first_name', 'Ada');
    page.hide();
    expect(JSON.parse(page.data.get(ANONYMOUS_ANSWERS_KEY) ?? '{}')).toEqual({ first_name: 'Ada' });
  });

  it('an anonymous draft reaches storage after the write delay while the page stays open', () => {
    fakePage();
    const session = reload(null);
    session.answers.set('first_name', 'Ada');
    vi.runOnlyPendingTimers();
    expect(reload(null).answers.get('first_name')).toBe('Ada');
  });

  it('a signed-in student’s unsaved change survives a closed tab and is saved at the next visit', () => {
    const page = fakePage();
    const student = profile('ada@example.edu');
    const session = reload(student);
    session.answers.set('first_name', 'Ada');
    page.leave();
    expect(JSON.parse(page.data.get(unsavedAnswersKey(student.username)) ?? '{}')).toEqual({
      first_name: 'Ada',
    });
    const next = reload(student);
    expect(next.answers.getAll()).toEqual({ last_name: 'Lovelace', first_name: 'Ada' });
    expect(next.answers.takeDirty()).toEqual({ first_name: 'Ada' });
  });

  it('what one person typed is written before the session changes to another', () => {
    const page = fakePage();
    const session = reload(null);
    session.answers.set('first_name', 'Ada');
    session.sync(profile('ada@example.edu'));
    expect(JSON.parse(page.data.get(ANONYMOUS_ANSWERS_KEY) ?? '{}')).toEqual({ first_name: 'Ada' });
  });

  it('a change typed just before the same student signs in again is in the new session', () => {
    fakePage();
    const student = profile('ada@example.edu');
    const session = reload(student);
    session.answers.set('first_name', 'Ada');
    // A new sign-in of the same account: a new session, the same copy in storage.
    session.sync({
      ...student,
      successful_login: [...student.successful_login, { logged_in_at: '2026-11-23T00:00:00.000Z' }],
    });
    expect(session.answers.get('first_name')).toBe('Ada');
    expect(session.answers.takeDirty()).toEqual({ first_name: 'Ada' });
  });
});
