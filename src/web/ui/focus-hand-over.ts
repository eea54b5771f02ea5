import { type RefObject, useLayoutEffect } from 'react';

/** Where the focus was in a part of the page that another one replaced. */
export interface HeldFocus {
  /** The focused element's id, which its counterpart in the new part has too. */
  id: string;
  /** In a text box: the caret or the selection, so typing carries on where it was. */
  selection: { start: number; end: number; direction: 'forward' | 'backward' | 'none' } | null;
}

function selectionOf(element: Element): HeldFocus['selection'] {
  if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) return null;
  const { selectionStart, selectionEnd, selectionDirection } = element;
  if (selectionStart === null || selectionEnd === null) return null;
  return { start: selectionStart, end: selectionEnd, direction: selectionDirection ?? 'none' };
}

/**
 * For a part of the page drawn until a fuller one has loaded: when it goes, notes in `held` the
 * element in it that had the focus. The cleanup of a layout effect runs before React takes the
 * part's elements out of the document, so the focus is still there to be read.
 */
export function useHandOverFocus(
  container: RefObject<HTMLElement | null>,
  held: RefObject<HeldFocus | null>,
): void {
  useLayoutEffect(() => {
    const part = container.current;
    return () => {
      const active = document.activeElement;
      if (part === null || active === null || active.id === '' || !part.contains(active)) return;
      held.current = { id: active.id, selection: selectionOf(active) };
    };
  }, [container, held]);
}

/**
 * For the part that replaced it: puts the focus (and a text box's selection) back on the element
 * with the same id, in the same commit, so no keystroke falls between the two parts and is lost.
 */
export function useTakeOverFocus(held: RefObject<HeldFocus | null> | undefined): void {
  useLayoutEffect(() => {
    const focus = held?.current;
    if (!held || !focus) return;
    held.current = null;
    const element = document.getElementById(focus.id);
    if (element === null) return;
    element.focus({ preventScroll: true });
    const { selection } = focus;
    if (
      selection !== null &&
      (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) &&
      element.selectionStart !== null
    ) {
      element.setSelectionRange(selection.start, selection.end, selection.direction);
    }
  }, [held]);
}
