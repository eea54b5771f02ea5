import { type RefObject, useEffect } from 'react';
import { useNavigationType } from 'react-router';

/**
 * Moves the focus to the page's heading when a navigation brought the page and the focus was
 * lost on the way: the control that started it (Sign In, Save and Continue, Submit) went with the
 * old page, so the browser left the focus on the body. The heading is read out, and the next Tab
 * goes on from the top of the new page. A first load or Back and Forward (POP) leaves it alone,
 * as does a navigation that put the focus somewhere itself (a step link, the error summary).
 */
export function useHeadingFocus(heading: RefObject<HTMLElement | null>): void {
  const navigationType = useNavigationType();
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the navigation that brought the page counts; later ones (a hash link, a replaced state) put the focus where they want it.
  useEffect(() => {
    if (navigationType === 'POP') return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    heading.current?.focus({ preventScroll: true });
  }, []);
}
