import { useEffect, useState } from 'react';

/** A page's sections drawn in its first frame: what fills the first screen. */
export const FIRST_SECTIONS = 2;

/**
 * A page's first sections alone in its first frame, the others once that frame has been painted:
 * on a slow phone the fields at the top take typing without waiting for the whole page to be
 * rendered and laid out. `drawWhole` skips that (a page opened at one of its questions, which
 * must be there to take the focus). The rest is an ordinary update, not a transition: a
 * transition would wait for whatever it suspends on, and hold back the router's own transitions
 * with it.
 */
export function useFirstSectionsFirst<T>(items: readonly T[], drawWhole: boolean): readonly T[] {
  const [drawnAll, setDrawnAll] = useState(drawWhole || items.length <= FIRST_SECTIONS);
  useEffect(() => {
    if (drawnAll) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drawRest = () => {
      timer = setTimeout(() => setDrawnAll(true), 0);
    };
    // A hidden tab paints nothing and holds its animation frames until it is shown.
    if (document.visibilityState === 'hidden') {
      drawRest();
      return () => clearTimeout(timer);
    }
    // The next frame's callback comes after this frame is painted; the task after it, after that.
    const frame = requestAnimationFrame(drawRest);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [drawnAll]);
  return drawnAll || drawWhole ? items : items.slice(0, FIRST_SECTIONS);
}
