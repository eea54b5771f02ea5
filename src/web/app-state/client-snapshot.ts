import { currentWebStatus, type ProfileResponse, type WebStatus } from '../../shared/api/profile';
import { isFormRoute } from '../../shared/routes';
import { createStore, type Store } from '../state/create-store';

/**
 * The client snapshot of spec 000 section 3: web status, last page, logged-in state, number of
 * log-ins and has_changed_page. It starts from the profile at each log-in and then changes here,
 * in the browser, as the applicant moves between pages and submits.
 */
export interface ClientSnapshot {
  /** Changes with each log-in (and is 'anonymous' without one): the snapshot starts over then. */
  sessionId: string;
  isLoggedIn: boolean;
  username: string | null;
  /** The count of successful log-ins, at least 1 for a signed-in student. */
  numLogins: number;
  webStatus: WebStatus | null;
  lastPage: string | null;
  hasChangedPage: boolean;
  /** Whether the saved last page was already considered on this log-in's first form page. */
  lastPageHandled: boolean;
  /** The form page shown last, to tell a page change from a first visit. */
  currentFormPath: string | null;
}

export const ANONYMOUS_SESSION = 'anonymous';

export function sessionIdOf(profile: ProfileResponse | null): string {
  return profile ? `${profile.username}#${profile.successful_login.length}` : ANONYMOUS_SESSION;
}

export function snapshotFromProfile(profile: ProfileResponse | null): ClientSnapshot {
  return {
    sessionId: sessionIdOf(profile),
    isLoggedIn: profile !== null,
    username: profile?.username ?? null,
    numLogins: profile ? Math.max(1, profile.successful_login.length) : 0,
    webStatus: profile ? currentWebStatus(profile.web_status) : null,
    lastPage: profile?.last_page ?? null,
    hasChangedPage: false,
    lastPageHandled: false,
    currentFormPath: null,
  };
}

/**
 * Spec 000 section 2: on load, a student who has not changed page yet is taken to the saved last
 * page when it differs from the current one. Only the first form page of a log-in asks.
 */
export function lastPageTarget(snapshot: ClientSnapshot, path: string): string | null {
  if (!snapshot.isLoggedIn || snapshot.lastPageHandled || snapshot.hasChangedPage) return null;
  const { lastPage } = snapshot;
  return lastPage && isFormRoute(lastPage) && lastPage !== path ? lastPage : null;
}

/** A visit to a form page; a different page than the last one is a page change. */
export function visitFormPage(
  snapshot: ClientSnapshot,
  path: string,
): { next: ClientSnapshot; changed: boolean } {
  const changed = snapshot.currentFormPath !== null && snapshot.currentFormPath !== path;
  if (snapshot.currentFormPath === path) return { next: snapshot, changed: false };
  return {
    next: {
      ...snapshot,
      currentFormPath: path,
      hasChangedPage: snapshot.hasChangedPage || changed,
      lastPage: changed ? path : snapshot.lastPage,
    },
    changed,
  };
}

/** The snapshot of the open tab and the changes the shell makes to it. */
export interface ClientSnapshotStore {
  readonly store: Store<ClientSnapshot>;
  get(): ClientSnapshot;
  /** Starts over from the profile when the person or the log-in changed; otherwise keeps it. */
  sync(profile: ProfileResponse | null): void;
  setWebStatus(webStatus: WebStatus): void;
  markLastPageHandled(): void;
  /** Records a visit to a form page; returns whether it was a page change. */
  noteFormPage(path: string): boolean;
}

export function createClientSnapshot(): ClientSnapshotStore {
  const store = createStore(snapshotFromProfile(null));
  return {
    store,
    get: store.get,
    sync(profile) {
      if (sessionIdOf(profile) !== store.get().sessionId) store.set(snapshotFromProfile(profile));
    },
    setWebStatus(webStatus) {
      store.set((current) =>
        current.webStatus === webStatus ? current : { ...current, webStatus },
      );
    },
    markLastPageHandled() {
      store.set((current) =>
        current.lastPageHandled ? current : { ...current, lastPageHandled: true },
      );
    },
    noteFormPage(path) {
      const { next, changed } = visitFormPage(store.get(), path);
      store.set(next);
      return changed;
    },
  };
}
