import type { Answers, AnswerValue } from '../../shared/form/model';

/**
 * Answers kept in the browser (docs/design.md, "Nothing typed is lost"): an anonymous visitor's whole
 * draft, or a signed-in student's changes that have not reached the server yet. Every write
 * merges per key, so two tabs editing different questions do not undo each other.
 *
 * Writes are held in memory and reach storage at most once per `LOCAL_COPY_WRITE_DELAY_MS`, and
 * at once on `flush` (the form session flushes when the page is hidden or left): reading,
 * parsing and rewriting the stored copy at every keystroke made typing cost more than the
 * keystroke itself (docs/decisions/041-keystroke-cost.md).
 */
export interface LocalCopy {
  /** The stored copy with the writes still held in memory. */
  load(): Answers;
  /** Merges these answers into the copy; storage gets them within the write delay. */
  write(changes: Answers): void;
  /** Drops the keys the server now holds, unless they changed again since. */
  forget(saved: Answers): void;
  /** Writes what is held in memory to storage now. */
  flush(): void;
  clear(): void;
}

/** The longest a change waits in memory; a tab hidden or closed writes it at once. */
export const LOCAL_COPY_WRITE_DELAY_MS = 500;

export const ANONYMOUS_ANSWERS_KEY = 'portal:answers';
export const unsavedAnswersKey = (username: string) => `portal:unsaved:${username}`;

/** The storage the copies use; a function so tests and private windows without storage work. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function browserStorage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage disabled by the browser's settings: the copy lives in memory only.
    return null;
  }
}

export function isAnswerValue(value: unknown): value is AnswerValue {
  return typeof value === 'string' || typeof value === 'boolean';
}

/** Only string and boolean values survive a read: storage can hold anything. */
export function parseAnswers(text: string | null): Answers {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const answers: Answers = {};
    for (const [key, value] of Object.entries(parsed))
      if (isAnswerValue(value)) answers[key] = value;
    return answers;
  } catch {
    return {};
  }
}

export function createLocalCopy(
  key: string,
  storage: StorageLike | null = browserStorage(),
): LocalCopy {
  /** Written since the last flush; merged over the stored copy then. */
  let pending: Answers = {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const read = () => {
    try {
      return parseAnswers(storage?.getItem(key) ?? null);
    } catch {
      return {};
    }
  };
  const store = (answers: Answers) => {
    try {
      if (Object.keys(answers).length === 0) storage?.removeItem(key);
      else storage?.setItem(key, JSON.stringify(answers));
    } catch {
      // A full or disabled storage: the answers still live in memory and, signed in, on the server.
    }
  };
  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const flush = () => {
    cancel();
    const changes = pending;
    pending = {};
    if (Object.keys(changes).length > 0) store({ ...read(), ...changes });
  };
  return {
    load: () => ({ ...read(), ...pending }),
    write(changes) {
      for (const name in changes) pending[name] = changes[name] as AnswerValue;
      // One timer for a burst of keystrokes, not one per keystroke.
      timer ??= setTimeout(flush, LOCAL_COPY_WRITE_DELAY_MS);
    },
    forget(saved) {
      flush();
      const current = read();
      let changed = false;
      for (const [name, value] of Object.entries(saved)) {
        if (name in current && current[name] === value) {
          delete current[name];
          changed = true;
        }
      }
      if (changed) store(current);
    },
    flush,
    clear() {
      cancel();
      pending = {};
      try {
        storage?.removeItem(key);
      } catch {
        // Nothing to clear.
      }
    },
  };
}

/** Whether an answer holds something: the empty value is '' (and false for a checkbox). */
export function hasContent(value: AnswerValue | undefined): boolean {
  return value !== undefined && value !== '' && value !== false;
}

export function nonEmpty(answers: Answers): Answers {
  const result: Answers = {};
  for (const [key, value] of Object.entries(answers)) if (hasContent(value)) result[key] = value;
  return result;
}
