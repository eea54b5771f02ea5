import type { Answers } from '../../shared/form/model';
import { ServerError, UnauthorizedError } from '../data/http-client';
import type { AnswerStore } from './answer-store';

/**
 * Where the signed-in student's answers stand: all on the server, on their way, failing and
 * being tried again, or refused for good because the application was submitted meanwhile.
 */
export type SaveState = 'saved' | 'saving' | 'retrying' | 'stopped';

export const SAVE_STATE_TEXT: Record<SaveState, string> = {
  saved: 'Saved',
  saving: 'Saving...',
  retrying: 'Not saved: retrying',
  stopped: 'Not saved: your application has already been submitted',
};

/** Quiet time after the last keystroke before a save (design.md: debounced while typing). */
export const AUTOSAVE_DEBOUNCE_MS = 800;
/** Waits between failed attempts; the last one repeats until a save gets through. */
export const RETRY_DELAYS_MS = [1000, 2000, 5000, 10_000, 30_000] as const;

export interface Autosave {
  getState(): SaveState;
  subscribe(listener: () => void): () => void;
  /** Saves now; resolves true once every change is on the server, false if an attempt failed. */
  flush(): Promise<boolean>;
  dispose(): void;
}

export interface AutosaveOptions {
  store: Pick<
    AnswerStore,
    'mode' | 'takeDirty' | 'returnDirty' | 'markSaved' | 'hasDirty' | 'onChange' | 'onSessionStart'
  >;
  /** PUT /api/answer with only the changed keys. */
  send(patch: Answers): Promise<unknown>;
  debounceMs?: number;
  retryDelaysMs?: readonly number[];
  /** Called when the server refuses for good (409: already submitted). */
  onStopped?: () => void;
}

/**
 * Saves the signed-in student's changed keys (design.md, "Nothing typed is lost"): debounced
 * while typing, at once when asked (page change, submit, before a log-out), one request at a
 * time. A failed save keeps its keys dirty and is tried again with growing waits, forever; the
 * store also keeps them in browser storage until the server has them.
 */
export function createAutosave({
  store,
  send,
  debounceMs = AUTOSAVE_DEBOUNCE_MS,
  retryDelaysMs = RETRY_DELAYS_MS,
  onStopped,
}: AutosaveOptions): Autosave {
  let state: SaveState = 'saved';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight = false;
  let failures = 0;
  let stopped = false;
  /** Keys the server rejected as invalid (400): sending them again cannot succeed. */
  const rejected = new Set<string>();
  let waiters: Array<(saved: boolean) => void> = [];
  const listeners = new Set<() => void>();

  const setState = (next: SaveState) => {
    if (state === next) return;
    state = next;
    for (const listener of [...listeners]) listener();
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

  async function run(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (inflight || !active()) return;
    const taken = store.takeDirty();
    const patch: Answers = {};
    for (const [key, value] of Object.entries(taken)) if (!rejected.has(key)) patch[key] = value;
    if (Object.keys(patch).length === 0) {
      failures = 0;
      setState('saved');
      settle(true);
      return;
    }
    if (state !== 'retrying') setState('saving');
    inflight = true;
    try {
      await send(patch);
      inflight = false;
      failures = 0;
      store.markSaved(patch);
      if (store.hasDirty()) {
        setState('saving');
        if (waiters.length > 0 || timer === undefined)
          schedule(waiters.length > 0 ? 0 : debounceMs);
      } else {
        setState('saved');
        settle(true);
      }
    } catch (error) {
      inflight = false;
      store.returnDirty(patch);
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
      if (error instanceof ServerError && error.status === 400 && error.errors) {
        const refused = Object.keys(error.errors).filter((key) => key in patch);
        if (refused.length > 0) {
          for (const key of refused) rejected.add(key);
          console.error('The server refused these answers; they stay in this browser.', refused);
          schedule(0);
          return;
        }
      }
      setState('retrying');
      settle(false);
      const delay = retryDelaysMs[Math.min(failures, retryDelaysMs.length - 1)] ?? 30_000;
      failures += 1;
      schedule(delay);
    }
  }

  const offChange = store.onChange(() => {
    if (!active()) return;
    if (state === 'saved') setState('saving');
    // While retrying, the scheduled retry carries the new keys too.
    if (state !== 'retrying') schedule(debounceMs);
  });
  const offSession = store.onSessionStart(() => {
    clearTimeout(timer);
    timer = undefined;
    stopped = false;
    failures = 0;
    rejected.clear();
    setState('saved');
    settle(false);
    if (store.hasDirty()) schedule(0);
  });
  if (store.hasDirty()) schedule(0);

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    flush() {
      if (!active()) return Promise.resolve(store.mode !== 'account' || !stopped);
      const done = new Promise<boolean>((resolve) => {
        waiters.push(resolve);
      });
      if (!inflight) void run();
      return done;
    },
    dispose() {
      clearTimeout(timer);
      offChange();
      offSession();
      settle(false);
    },
  };
}
