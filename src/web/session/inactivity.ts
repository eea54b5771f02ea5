import { INACTIVITY_PROMPT_BEFORE_MS, INACTIVITY_TIMEOUT_MS } from '../../shared/constants';

export interface InactivityTimings {
  /** Inactivity after which the browser logs out. */
  timeoutMs: number;
  /** How long before the logout the prompt appears. */
  promptBeforeMs: number;
}

/** Spec 000 section 9: 15 minutes, with the prompt 60 seconds before. */
export const INACTIVITY_TIMINGS: InactivityTimings = {
  timeoutMs: INACTIVITY_TIMEOUT_MS,
  promptBeforeMs: INACTIVITY_PROMPT_BEFORE_MS,
};

export type InactivityState =
  | { phase: 'active'; msUntilPrompt: number }
  | { phase: 'prompt'; msUntilLogout: number }
  | { phase: 'expired' };

/**
 * Where the applicant stands, given the shared last-activity mark. A mark in the future (another
 * tab's clock, a clock change) counts as activity now rather than as a longer session.
 */
export function inactivityState(
  now: number,
  lastActivityAt: number,
  { timeoutMs, promptBeforeMs }: InactivityTimings = INACTIVITY_TIMINGS,
): InactivityState {
  const idle = Math.max(0, now - lastActivityAt);
  if (idle >= timeoutMs) {
    return { phase: 'expired' };
  }
  const promptAt = Math.max(0, timeoutMs - promptBeforeMs);
  if (idle >= promptAt) {
    return { phase: 'prompt', msUntilLogout: timeoutMs - idle };
  }
  return { phase: 'active', msUntilPrompt: promptAt - idle };
}

export type ActivityDecision = 'expire' | 'ignore' | 'mark';

/**
 * What a user event (key, pointer, scroll) means. Past the time-out it is a return after timers
 * could not fire (a closed laptop lid), so the session ends at once (spec 000 section 4). While
 * the prompt is open, only its buttons count: moving the mouse is not an answer.
 */
export function activityDecision(
  now: number,
  lastActivityAt: number,
  promptOpen: boolean,
  timings: InactivityTimings = INACTIVITY_TIMINGS,
): ActivityDecision {
  if (inactivityState(now, lastActivityAt, timings).phase === 'expired') {
    return 'expire';
  }
  return promptOpen ? 'ignore' : 'mark';
}

/** "1 minute", "59 seconds", "1 second": the prompt's countdown, rounded up to whole seconds. */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds >= 60 && seconds % 60 === 0) {
    const minutes = seconds / 60;
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** The localStorage key every tab reads and writes, so they agree on the last activity. */
export const LAST_ACTIVITY_KEY = 'tp_last_activity';

/** The last activity, shared by every tab of one app through a storage key of its own. */
export interface ActivityMarks {
  /** The storage key, so a change made by another tab can be recognised. */
  readonly key: string;
  read(): number | null;
  write(at: number): void;
}

type MarkStorage = () => Pick<Storage, 'getItem' | 'setItem'> | undefined;

const localStorageOf: MarkStorage = () => globalThis.localStorage;

/** The mark stored under `key` (null when unreadable), or undefined when storage has none or is blocked. */
export function readStoredMark(
  key: string,
  storage: MarkStorage = localStorageOf,
): number | null | undefined {
  try {
    const stored = storage()?.getItem(key);
    if (stored !== null && stored !== undefined) {
      const value = Number(stored);
      return Number.isFinite(value) ? value : null;
    }
  } catch {
    // Blocked storage: the caller's own mark stands in.
  }
  return undefined;
}

export function storeMark(key: string, at: number, storage: MarkStorage = localStorageOf): void {
  try {
    storage()?.setItem(key, String(at));
  } catch {
    // Storage full or blocked: the caller's in-memory mark still serves this tab.
  }
}

/** Used when storage is unavailable (some private modes); the tab then keeps its own mark. */
let memoryMark: number | null = null;

export function readActivityMark(): number | null {
  const stored = readStoredMark(LAST_ACTIVITY_KEY);
  return stored === undefined ? memoryMark : stored;
}

export function writeActivityMark(at: number): void {
  memoryMark = at;
  storeMark(LAST_ACTIVITY_KEY, at);
}

/** The applicant's marks, as the inactivity prompt reads them. */
export const applicantActivityMarks: ActivityMarks = {
  key: LAST_ACTIVITY_KEY,
  read: readActivityMark,
  write: writeActivityMark,
};

/** Spec 000 section 7 / server: the session ends after 15 idle minutes; keep-alive at most once a minute. */
export const KEEP_ALIVE_INTERVAL_MS = 60_000;

export interface KeepAliveClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Tells the server about activity when nothing else does, at most once per interval. A trailing
 * call covers activity inside the interval, so the server never holds a last-seen time older
 * than the browser's last activity mark, and its idle time-out never runs out first.
 */
export function createKeepAlive(options: {
  send: () => void;
  /** The last time any signed-in call reached the server (it touched the session too). */
  lastServerTouch: () => number;
  intervalMs?: number;
  clock?: KeepAliveClock;
}) {
  const intervalMs = options.intervalMs ?? KEEP_ALIVE_INTERVAL_MS;
  const clock: KeepAliveClock = options.clock ?? {
    now: () => Date.now(),
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let lastActivityAt = Number.NEGATIVE_INFINITY;
  let trailing: unknown = null;

  const lastTouch = () => Math.max(lastSentAt, options.lastServerTouch());

  function send(): void {
    lastSentAt = clock.now();
    options.send();
  }

  function flushTrailing(): void {
    trailing = null;
    if (lastActivityAt > lastTouch()) {
      send();
    }
  }

  return {
    /** Activity happened now. */
    activity(): void {
      const now = clock.now();
      lastActivityAt = now;
      const wait = lastTouch() + intervalMs - now;
      if (wait <= 0) {
        send();
      } else if (trailing === null) {
        trailing = clock.setTimeout(flushTrailing, wait);
      }
    },
    /** Sends now, whatever the interval ("Stay logged in"). */
    now(): void {
      lastActivityAt = clock.now();
      send();
    },
    stop(): void {
      if (trailing !== null) {
        clock.clearTimeout(trailing);
        trailing = null;
      }
    },
  };
}
