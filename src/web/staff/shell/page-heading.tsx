import { type ReactNode, useEffect, useRef } from 'react';
import { useNavigationType } from 'react-router';
import styles from './console.module.css';

/**
 * A signed-in page's heading. A navigation to the page puts the focus here, to be read out: the
 * console's navigation stays on screen, so the link that was followed would otherwise keep it.
 * A first load, Back and Forward leave it alone.
 */
export function PageHeading({ title, intro }: { title: string; intro?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Only the navigation that brought the page counts, not later ones (filters in the address).
  const arrivedBy = useRef(useNavigationType());
  useEffect(() => {
    if (arrivedBy.current !== 'POP') heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <>
      <h1 ref={heading} tabIndex={-1} className={styles.pageTitle}>
        {title}
      </h1>
      {intro ? <p className={styles.pageIntro}>{intro}</p> : null}
    </>
  );
}

/** A date and time as staff read it, in their own time zone. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}
