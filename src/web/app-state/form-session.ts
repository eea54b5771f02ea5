import type { QueryClient } from '@tanstack/react-query';
import type { ProfileResponse, WebStatus } from '../../shared/api/profile';
import { STATUS_POST_RETRIES } from '../../shared/constants';
import type { Answers } from '../../shared/form/model';
import { addAnotherQueryOptions, tabsQueryOptions } from '../data/form-state';
import { postJson, putJson, ServerError } from '../data/http-client';
import { profileQueryOptions } from '../data/profile';
import { queryKeys } from '../data/query-keys';
import { AnswerStore } from './answer-store';
import { type BeforeLogoutHooks, createBeforeLogoutHooks } from './before-logout';
import { type ClientSnapshotStore, createClientSnapshot, sessionIdOf } from './client-snapshot';
import {
  ANONYMOUS_ANSWERS_KEY,
  createLocalCopy,
  hasContent,
  nonEmpty,
  unsavedAnswersKey,
} from './local-copy';
import { createPrefillNotice, type PrefillNotice } from './prefill-notice';
import { createSessionEnding, type SessionEnding } from './session-end';
import { createSummaryState, type SummaryState } from './summary-state';
import { createTabGuard, type TabGuard } from './tab-switch';
import { trackedCall } from './tracked-call';

/**
 * Everything the browser keeps about the open application while the app runs: the answers, the
 * client snapshot, the tab guard, the errors a submit hands back, the prefill outcome, the work
 * to do before a log-out, and (once a form page has opened) the autosave and the uploads. The
 * app makes one at its root, next to the query client, and hands it down through context;
 * server state stays in the query cache. Small on purpose: it ships with the shell, while the
 * model, the renderer, the autosave and the uploads load with the form pages.
 */
export interface FormSession {
  readonly answers: AnswerStore;
  readonly snapshot: ClientSnapshotStore;
  readonly tabGuard: TabGuard;
  readonly summary: SummaryState;
  readonly prefillNotice: PrefillNotice;
  readonly beforeLogout: BeforeLogoutHooks;
  readonly ending: SessionEnding;
  /**
   * Points the snapshot and the store at whoever the profile says is there: an anonymous
   * visitor's draft from browser storage, or the account's answers plus any changes a closed tab
   * or an ended session left unsaved in this browser (they are saved again).
   */
  sync(profile: ProfileResponse | null): void;
  /** Keeps the store in step with the cached profile: a log-out empties it at once. */
  watchProfile(): () => void;
  /** The profile for a loader; a failure is the root loader's to handle, so it reads as anonymous here. */
  loadProfile(): Promise<ProfileResponse | null>;
  /** The signed-in student's tab choices and add-another counts; the defaults if they cannot load. */
  loadContainers(): Promise<void>;
  /**
   * Spec 000 section 2: answers typed before signing in are saved into the account at the first
   * log-in, without overwriting answers the account already has (PUT /api/answer?keep_existing).
   * Keys the server does not know (a draft from an older form) are left out and the rest sent
   * again. If the call fails, the answers join the account's locally and are saved like any edit.
   */
  carryInAnswers(extra?: Answers): Promise<void>;
  /** Whether an anonymous visitor has typed anything: following a step link then leads to sign-up. */
  anonymousAnswers(): Answers | null;
  /** Spec 000 section 4: status posts retry twice; the status is set locally first. */
  postWebStatus(webStatus: WebStatus): Promise<unknown>;
  /** Spec 000 section 4: a signed-in student without a web status has now started. */
  startApplication(): void;
  /** The autosave flushes here: a student leaving a page has the answers saved (spec 001 section 2). */
  onPageChange(listener: (path: string) => void): () => void;
  /** A page change: answers saved, and while started or validating the last page too. */
  pageChanged(path: string): void;
  /**
   * The autosave and the uploads, made by the first form page to open (their code loads with the
   * form pages) and kept from then on: an upload goes on while the applicant changes step.
   * Generic because their type lives with the form pages, which import this folder, not the
   * other way round; the one caller (form/form-page.tsx) always passes `createFormTools`.
   */
  startFormTools<Tools>(create: (session: FormSession) => Tools): Tools;
}

/** `ending` is shared with the query client's 401 handler, which is made before the session. */
export function createFormSession(
  queryClient: QueryClient,
  ending: SessionEnding = createSessionEnding(),
): FormSession {
  const answers = new AnswerStore();
  const snapshot = createClientSnapshot();
  const anonymousCopy = createLocalCopy(ANONYMOUS_ANSWERS_KEY);
  const pageChangeListeners = new Set<(path: string) => void>();
  let containersFor = '';
  let carriedFor = '';
  let startedFor = '';
  let formTools: unknown = null;

  // The local copy writes in batches (local-copy.ts): a tab hidden, closed or reloaded writes
  // what is still held, so no answer typed is lost. `pagehide` covers a reload and a close;
  // `visibilitychange` covers a phone switching apps, after which the page may never run again.
  // Tests of the session's calls run without a page: there is nothing to hide or leave there.
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', () => answers.flushLocalCopy());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') answers.flushLocalCopy();
    });
  }

  const session: FormSession = {
    answers,
    snapshot,
    tabGuard: createTabGuard(),
    summary: createSummaryState(),
    prefillNotice: createPrefillNotice(),
    beforeLogout: createBeforeLogoutHooks(),
    ending,

    sync(profile) {
      snapshot.sync(profile);
      const id = sessionIdOf(profile);
      if (answers.sessionId === id) return;
      // What the old session's copy still holds in memory is in storage before the new one reads it.
      answers.flushLocalCopy();
      if (!profile) {
        answers.startSession({
          id,
          mode: 'anonymous',
          answers: anonymousCopy.load(),
          localCopy: anonymousCopy,
        });
        return;
      }
      const unsavedCopy = createLocalCopy(unsavedAnswersKey(profile.username));
      const unsaved = unsavedCopy.load();
      answers.startSession({
        id,
        mode: 'account',
        answers: { ...profile.answer, ...unsaved },
        localCopy: unsavedCopy,
        dirtyKeys: Object.keys(unsaved),
      });
    },

    watchProfile() {
      return queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.query.queryKey[0] !== queryKeys.profile[0]) return;
        const data = event.query.state.data as ProfileResponse | null | undefined;
        if (data !== undefined) session.sync(data);
      });
    },

    async loadProfile() {
      const profile = await queryClient.ensureQueryData(profileQueryOptions).catch(() => null);
      session.sync(profile);
      return profile;
    },

    async loadContainers() {
      const id = answers.sessionId;
      if (containersFor === id) return;
      const [tabs, addAnother] = await Promise.all([
        queryClient.ensureQueryData(tabsQueryOptions).catch(() => ({})),
        queryClient.ensureQueryData(addAnotherQueryOptions).catch(() => ({})),
      ]);
      if (answers.sessionId !== id) return;
      containersFor = id;
      answers.setContainers({ tabs, addAnother });
    },

    async carryInAnswers(extra = {}) {
      const id = answers.sessionId;
      if (answers.mode !== 'account') return;
      // Only what the account lacks: the server would keep the account's answer for the rest.
      const draft = Object.fromEntries(
        Object.entries(nonEmpty({ ...anonymousCopy.load(), ...extra })).filter(
          ([key]) => !hasContent(answers.get(key)),
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
      if (answers.sessionId !== id) return;
      anonymousCopy.clear();
      // What the server now holds: the draft, under every answer the account already had.
      const account = answers.getAll();
      const changes: Answers = {};
      for (const [key, value] of Object.entries(patch))
        if (!hasContent(account[key])) changes[key] = value;
      answers.setMany(changes, { dirty: !saved });
    },

    anonymousAnswers() {
      if (answers.mode !== 'anonymous' || !answers.hasAnswers()) return null;
      return nonEmpty(answers.getAll());
    },

    postWebStatus(webStatus) {
      snapshot.setWebStatus(webStatus);
      return trackedCall(
        queryClient,
        () => postJson('/api/web-status', { web_status: webStatus }),
        STATUS_POST_RETRIES,
      );
    },

    startApplication() {
      const current = snapshot.get();
      if (!current.isLoggedIn || current.webStatus !== null || startedFor === current.sessionId)
        return;
      startedFor = current.sessionId;
      session.postWebStatus('started').catch((error: unknown) => {
        console.error('Could not record the started status.', error);
      });
    },

    onPageChange(listener) {
      pageChangeListeners.add(listener);
      return () => {
        pageChangeListeners.delete(listener);
      };
    },

    pageChanged(path) {
      for (const listener of [...pageChangeListeners]) listener(path);
      const { isLoggedIn, webStatus } = snapshot.get();
      if (isLoggedIn && (webStatus === 'started' || webStatus === 'validating')) {
        trackedCall(queryClient, () => putJson('/api/last-page', { last_page: path })).catch(
          (error: unknown) => {
            console.error('Could not save the last page.', error);
          },
        );
      }
    },

    startFormTools<Tools>(create: (owner: FormSession) => Tools): Tools {
      formTools ??= create(session);
      // Made by the same `createFormTools` every time (see the interface), so this is its type.
      return formTools as Tools;
    },
  };
  return session;
}
