import { useEffect } from 'react';

/** Where typing goes, so `/` is a character there and not the shortcut. */
function isTypingPlace(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  // Boxes, radios and buttons take no text: `/` on them still means "search".
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
}

/**
 * `/` moves focus to the element with this id from anywhere on the page, as on many sites' lists,
 * except while typing in a field, with a modifier held, or inside a dialog (whose focus stays in
 * it). Nothing is announced beyond the box itself, which its label names.
 */
export function useSlashFocuses(id: string): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.defaultPrevented) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingPlace(event.target)) return;
      if (event.target instanceof Element && event.target.closest('[role="dialog"]')) return;
      const box = document.getElementById(id);
      if (!box) return;
      event.preventDefault();
      box.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [id]);
}
