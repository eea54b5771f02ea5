import type { QueryClient } from '@tanstack/react-query';
import type { ProfileResponse, WebStatus } from '../../shared/api/profile';
import { STATUS_POST_RETRIES } from '../../shared/constants';
import type { Answers } from '../../shared/form/model';
import { addAnotherQueryOptions, tabsQueryOptions } from '../data/form-state';
import { postJson, putJson, ServerError } from '../data/http-client';
import { profileQueryOptions } from '../data/profile';
import { queryKeys } from '../data/query-keys';
import { AnswerStore } from './answer-store';
import {
  getClientSnapshot,
  sessionIdOf,
  setWebStatus,
  syncClientSnapshot,
} from './client-snapshot';
import {
  ANONYMOUS_ANSWERS_KEY,
  createLocalCopy,
  hasContent,
  nonEmpty,
  unsavedAnswersKey,
} from './local-copy';
import { trackedCall } from './tracked-call';

/**
 * The form's session: the one answer store of the open application and how it follows the
 * person signed in. Small on purpose: it ships with the shell, while the model and the renderer
 * load with the form pages.
 */
export const answerStore = new AnswerStore();

const anonymousCopy = createLocalCopy(ANONYMOUS_ANSWERS_KEY);

/**
 * Points the snapshot and the store at whoever the profile says is there: an anonymous visitor's
 * draft from browser storage, or the account's answers plus any changes a closed tab or an ended
 * session left unsaved in this browser (they are saved again).
 */
export function syncFormSession(profile: ProfileResponse | null): void {
  syncClientSnapshot(profile);
  const id = sessionIdOf(profile);
  if (answerStore.sessionId === id) return;
  if (!profile) {
    answerStore.startSession({
      id,
      mode: 'anonymous',
      answers: anonymousCopy.load(),
      localCopy: anonymousCopy,
    });
    return;
  }
  const unsavedCopy = createLocalCopy(unsavedAnswersKey(profile.username));
  const unsaved = unsavedCopy.load();
  answerStore.startSession({
    id,
    mode: 'account',
    answers: { ...profile.answer, ...unsaved },
    localCopy: unsavedCopy,
    dirtyKeys: Object.keys(unsaved),
  });
}

/** Keeps the store in step with the cached profile: a log-out empties it at once. */
export function watchProfile(queryClient: QueryClient): () => void {
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryKey[0] !== queryKeys.profile[0]) return;
    const data = event.query.state.data as ProfileResponse | null | undefined;
    if (data !== undefined) syncFormSession(data);
  });
}

/** The profile for a loader; a failure is the root loader's to handle, so it reads as anonymous here. */
export async function loadProfile(queryClient: QueryClient): Promise<ProfileResponse | null> {
  const profile = await queryClient.ensureQueryData(profileQueryOptions).catch(() => null);
  syncFormSession(profile);
  return profile;
}

let containersFor = '';

/** The signed-in student's tab choices and add-another counts; the defaults if they cannot load. */
export async function loadContainers(queryClient: QueryClient): Promise<void> {
  const id = answerStore.sessionId;
  if (containersFor === id) return;
  const [tabs, addAnother] = await Promise.all([
    queryClient.ensureQueryData(tabsQueryOptions).catch(() => ({})),
    queryClient.ensureQueryData(addAnotherQueryOptions).catch(() => ({})),
  ]);
  if (answerStore.sessionId !== id) return;
  containersFor = id;
  answerStore.setContainers({ tabs, addAnother });
}

let carriedFor = '';

/**
 * Spec 000 section 2: answers typed before signing in are saved into the account at the first
 * log-in, without overwriting answers the account already has (PUT /api/answer?keep_existing).
 * Keys the server does not know (a draft from an older form) are left out and the rest sent
 * again. If the call fails, the answers join the account's locally and are saved like any edit.
 */
export async function carryInAnswers(queryClient: QueryClient, extra: Answers = {}): Promise<void> {
  const id = answerStore.sessionId;
  if (answerStore.mode !== 'account') return;
  // Only what the account lacks: the server would keep the account's answer for the rest.
  const draft = Object.fromEntries(
    Object.entries(nonEmpty({ ...anonymousCopy.load(), ...extra })).filter(
      ([key]) => !hasContent(answerStore.get(key)),
    ),
  );
  if (Object.keys(draft).length === 0) {
    anonymousCopy.clear();
    return;
  }
  if (carriedFor === `${id}:${JSON.stringify(draft)}`) return;
  carriedFor = `${id}:${JSON.stringify(draft)}`;
  let patch = draft;
  let saved = false;
  for (let attempt = 0; attempt < 2 && !saved && Object.keys(patch).length > 0; attempt++) {
    try {
      await trackedCall(queryClient, () => putJson('/api/answer?keep_existing=true', patch));
      saved = true;
    } catch (error) {
      if (!(error instanceof ServerError) || error.status !== 400 || !error.errors) break;
      const rejected = error.errors;
      patch = Object.fromEntries(Object.entries(patch).filter(([key]) => !(key in rejected)));
    }
  }
  if (answerStore.sessionId !== id) return;
  anonymousCopy.clear();
  // What the server now holds: the draft, under every answer the account already had.
  const account = answerStore.getAll();
  const changes: Answers = {};
  for (const [key, value] of Object.entries(patch))
    if (!hasContent(account[key])) changes[key] = value;
  answerStore.setMany(changes, { dirty: !saved });
}

/** Whether an anonymous visitor has typed anything: following a step link then leads to sign-up. */
export function anonymousAnswers(): Answers | null {
  if (answerStore.mode !== 'anonymous' || !answerStore.hasAnswers()) return null;
  return nonEmpty(answerStore.getAll());
}

/** Spec 000 section 4: status posts retry twice; the status is set locally first. */
export function postWebStatus(queryClient: QueryClient, webStatus: WebStatus): Promise<unknown> {
  setWebStatus(webStatus);
  return trackedCall(
    queryClient,
    () => postJson('/api/web-status', { web_status: webStatus }),
    STATUS_POST_RETRIES,
  );
}

let startedFor = '';

/** Spec 000 section 4: a signed-in student without a web status has now started. */
export function startApplication(queryClient: QueryClient): void {
  const snapshot = getClientSnapshot();
  if (!snapshot.isLoggedIn || snapshot.webStatus !== null || startedFor === snapshot.sessionId)
    return;
  startedFor = snapshot.sessionId;
  postWebStatus(queryClient, 'started').catch((error: unknown) => {
    console.error('Could not record the started status.', error);
  });
}

const pageChangeListeners = new Set<(path: string) => void>();

/** The autosave flushes here: a student leaving a page has the answers saved (spec 001 section 2). */
export function onPageChange(listener: (path: string) => void): () => void {
  pageChangeListeners.add(listener);
  return () => {
    pageChangeListeners.delete(listener);
  };
}

/** A page change: answers saved, and while started or validating the last page too. */
export function pageChanged(queryClient: QueryClient, path: string): void {
  for (const listener of [...pageChangeListeners]) listener(path);
  const { isLoggedIn, webStatus } = getClientSnapshot();
  if (isLoggedIn && (webStatus === 'started' || webStatus === 'validating')) {
    trackedCall(queryClient, () => putJson('/api/last-page', { last_page: path })).catch(
      (error: unknown) => {
        console.error('Could not save the last page.', error);
      },
    );
  }
}
