import {
  type CourseworkAnswer,
  parseCourseworkAnswer,
  serializeCourseworkAnswer,
} from '../../shared/coursework/coursework-answer';

/*
 * A draft of a coursework update kept for the tab (sessionStorage), so a reload or a closed
 * editor does not lose what was typed. It is tied to the grid it was begun on: once the grid has
 * changed (an update sent from another tab), the draft is dropped rather than sent over it.
 */

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const storageKey = (key: string) => `coursework-update-draft:${key}`;

function storage(): DraftStorage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage turned off: the draft lives only while the editor is open.
    return null;
  }
}

/** The kept draft of the grid `key`, when it was begun on `current` (the grid's text now). */
export function readDraft(
  key: string,
  current: string,
  store: DraftStorage | null = storage(),
): CourseworkAnswer | null {
  try {
    const kept = JSON.parse(store?.getItem(storageKey(key)) ?? 'null') as {
      current?: unknown;
      draft?: unknown;
    } | null;
    if (!kept || kept.current !== current || typeof kept.draft !== 'string') return null;
    const parsed = parseCourseworkAnswer(kept.draft);
    return parsed.ok ? parsed.answer : null;
  } catch {
    return null;
  }
}

export function keepDraft(
  key: string,
  current: string,
  draft: CourseworkAnswer,
  store: DraftStorage | null = storage(),
): void {
  try {
    store?.setItem(
      storageKey(key),
      JSON.stringify({ current, draft: serializeCourseworkAnswer(draft) }),
    );
  } catch {
    // Full or refused: the draft stays in the editor's state.
  }
}

export function dropDraft(key: string, store: DraftStorage | null = storage()): void {
  try {
    store?.removeItem(storageKey(key));
  } catch {
    // Nothing to drop.
  }
}
