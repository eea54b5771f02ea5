import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import type { Answers } from '../../shared/form/model';
import type { AnswerStore } from '../app-state/answer-store';
import { isTransientFailure, ServerError, UnauthorizedError } from '../data/http-client';
import { createStore } from '../state/create-store';

/**
 * Where the signed-in student's answers stand: all on the server, on their way, failing and
 * being tried again, given up on until the applicant tries again, or refused for good because
 * the application was submitted meanwhile.
 */
export type SaveState = 'saved' | 'saving' | 'retrying' | 'failed' | 'held' | 'stopped';

export const SAVE_STATE_TEXT: Record<SaveState, string> = {
  saved: 'Saved',
  saving: 'Saving...',
  retrying: 'Not saved: retrying',
  failed: 'Not saved: kept on this device',
  held: 'Not saved: correct the marked entries',
  stopped: 'Not saved: your application has already been submitted',
};

/** Why saving gave up: the server's message, or the generic one when no reply came. */
export interface SaveFailure {
  message: string;
}

/** Quiet time after the last keystroke before a save (docs/design.md: debounced while typing). */
export const AUTOSAVE_DEBOUNCE_MS = 800;
/** Waits between attempts of a save that may yet succeed; after the last one it gives up. */
export const RETRY_DELAYS_MS = [1000, 2000, 5000, 10_000, 30_000] as const;
/** A server asking to wait longer than this (Retry-After) is taken as a refusal for now. */
export const RETRY_AFTER_LIMIT_MS = 60_000;

export interface Autosave {
  getState(): SaveState;
  /** Why the last save gave up; a new object each time it gives up, null once all is saved. */
  getFailure(): SaveFailure | null;
  subscribe(listener: () => void): () => void;
  /** Saves now; resolves true once every change is on the server, false if an attempt failed. */
  flush(): Promise<boolean>;
  /** The applicant's Try again: sends every unsaved answer, those the server refused included. */
  retry(): Promise<boolean>;
  dispose(): void;
}

export interface AutosaveOptions {
  store: Pick<
    AnswerStore,
    'mode' | 'takeDirty' | 'returnDirty' | 'markSaved' | 'hasDirty' | 'onChange' | 'onSessionStart'
  > &
    Partial<Pick<AnswerStore, 'heldKeys'>>;
  /** PUT /api/answer with only the changed keys. */
  send(patch: Answers): Promise<unknown>;
  debounceMs?: number;
  retryDelaysMs?: readonly number[];
  /** Called when the server refuses for good (409: already submitted). */
  onStopped?: () => void;
}

/**
 * Saves the signed-in student's changed keys (docs/design.md, "Nothing typed is lost"): debounced
 * while typing, at once when asked (page change, submit, before a log-out), one request at a
 * time. Until the server has them, the store keeps them in browser storage as well.
 *
 * Only what can succeed is sent again: a failure with no reply, a server error, or a 429 with
 * Retry-After, a bounded number of times. Then it gives up and waits: typing goes on being kept
 * in the browser, and the next save moment (page change, submit, log-out, the tab hidden) or
 * the applicant's Try again starts over. Keys the server refuses (400) are set aside so the rest
 * is saved; they go again when the applicant changes them or tries again.
 */
export function createAutosave({
  store,
  send,
  debounceMs = AUTOSAVE_DEBOUNCE_MS,
  retryDelaysMs = RETRY_DELAYS_MS,
  onStopped,
}: AutosaveOptions): Autosave {
  // What the save status shows; replaced as a whole, so each change reaches its listeners.
  const shown = createStore<{ state: SaveState; failure: SaveFailure | null }>({
    state: 'saved',
    failure: null,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight = false;
  let failures = 0;
  let stopped = false;
  /** Gave up on reaching the server: automatic saves wait for a save moment or Try again. */
  let paused = false;
  /** Keys the server refused as invalid (400): sending them unchanged would fail again. */
  const refused = new Set<string>();
  let waiters: Array<(saved: boolean) => void> = [];

  const setState = (next: SaveState) => {
    shown.set((current) => (current.state === next ? current : { ...current, state: next }));
  };
  const fail = (message: string) => {
    shown.set({ state: 'failed', failure: { message } });
  };
  const settle = (saved: boolean) => {
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve(saved);
  };
  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  const active = () => store.mode === 'account' && !stopped;

  /** Nothing left to send: saved, unless refused answers still wait. */
  const finish = () => {
    failures = 0;
    if (refused.size > 0) {
      setState('failed');
      settle(false);
      return;
    }
    // Answers the server would refuse as they stand wait on this device for their correction.
    if ((store.heldKeys?.() ?? []).length > 0) {
      shown.set({ state: 'held', failure: null });
      settle(false);
      return;
    }
    shown.set({ state: 'saved', failure: null });
    settle(true);
  };

  async function run(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (inflight || !active()) return;
    const patch: Answers = {};
    for (const [key, value] of Object.entries(store.takeDirty()))
      if (!refused.has(key)) patch[key] = value;
    if (Object.keys(patch).length === 0) {
      finish();
      return;
    }
    if (shown.get().state === 'saved' || shown.get().state === 'held') setState('saving');
    inflight = true;
    try {
      await send(patch);
      inflight = false;
      failures = 0;
      store.markSaved(patch);
      if (store.hasDirty()) {
        if (shown.get().state === 'retrying') setState('saving');
        if (waiters.length > 0 || timer === undefined)
          schedule(waiters.length > 0 ? 0 : debounceMs);
      } else {
        finish();
      }
    } catch (error) {
      inflight = false;
      store.returnDirty(patch);
      handleFailure(error, patch);
    }
  }

  function handleFailure(error: unknown, patch: Answers): void {
    if (error instanceof ServerError && error.status === 409) {
      stopped = true;
      clearTimeout(timer);
      setState('stopped');
      settle(false);
      onStopped?.();
      return;
    }
    if (error instanceof UnauthorizedError) {
      // The session is over; the unsaved answers wait in browser storage for the next log-in.
      setState('retrying');
      settle(false);
      return;
    }
    if (isTransientFailure(error) && failures < retryDelaysMs.length) {
      const wait = error.retryAfterMs ?? retryDelaysMs[failures] ?? 0;
      if (wait <= RETRY_AFTER_LIMIT_MS) {
        failures += 1;
        setState('retrying');
        settle(false);
        schedule(wait);
        return;
      }
    }
    failures = 0;
    const refusedKeys =
      error instanceof ServerError && error.status === 400 && error.errors
        ? Object.keys(error.errors).filter((key) => key in patch)
        : [];
    if (refusedKeys.length > 0) {
      for (const key of refusedKeys) refused.add(key);
      const others: Answers = {};
      for (const [key, value] of Object.entries(store.takeDirty()))
        if (!refused.has(key)) others[key] = value;
      store.returnDirty(others);
      fail((error as ServerError).message);
      settle(false);
      if (store.hasDirty()) schedule(0);
      return;
    }
    paused = true;
    clearTimeout(timer);
    timer = undefined;
    fail(error instanceof ServerError ? error.message : GENERIC_SERVER_ERROR_MESSAGE);
    settle(false);
  }

  /** Sends now and resolves when everything is on the server, or false at the first failure. */
  function saveNow({ startOver }: { startOver: boolean }): Promise<boolean> {
    if (!active()) return Promise.resolve(store.mode !== 'account' || !stopped);
    if (startOver || paused) {
      paused = false;
      failures = 0;
      setState('saving');
    }
    const done = new Promise<boolean>((resolve) => {
      waiters.push(resolve);
    });
    if (!inflight) void run();
    return done;
  }

  const offChange = store.onChange((keys) => {
    if (!active()) return;
    // A changed answer is a new answer: the server may well take it.
    for (const key of keys) refused.delete(key);
    if (paused) return;
    if (shown.get().state === 'saved' || shown.get().state === 'held') setState('saving');
    // While retrying, the scheduled retry carries the new keys too.
    if (shown.get().state !== 'retrying') schedule(debounceMs);
  });
  const offSession = store.onSessionStart(() => {
    clearTimeout(timer);
    timer = undefined;
    stopped = false;
    paused = false;
    failures = 0;
    refused.clear();
    shown.set({ state: 'saved', failure: null });
    settle(false);
    if (store.hasDirty()) schedule(0);
  });
  if (store.hasDirty()) schedule(0);

  return {
    getState: () => shown.get().state,
    getFailure: () => shown.get().failure,
    subscribe: shown.subscribe,
    flush: () => saveNow({ startOver: false }),
    retry() {
      if (refused.size > 0) {
        store.returnDirty(Object.fromEntries([...refused].map((key) => [key, ''])));
        refused.clear();
      }
      return saveNow({ startOver: true });
    },
    dispose() {
      clearTimeout(timer);
      offChange();
      offSession();
      settle(false);
    },
  };
}
