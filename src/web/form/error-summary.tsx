import { type Ref, useId, useState } from 'react';
import { Link } from 'react-router';
import { ERROR_SUMMARY_TITLE } from '../../shared/api/application-messages';
import { BREAKPOINT_MOBILE_PX } from '../../shared/constants';
import styles from './error-summary.module.css';
import { type Summary, type SummaryPage, summaryForPage } from './summary';

/** Moves to a field the summary names: scrolled into view, its first control focused. */
export function focusField(key: string): boolean {
  const wrapper = document.getElementById(key);
  if (!wrapper) return false;
  wrapper.scrollIntoView({ block: 'start' });
  // A question of many cells (the coursework grid) lands on the first cell with a message.
  const invalid = wrapper.hasAttribute('data-focus-invalid')
    ? wrapper.querySelector<HTMLElement>('[aria-invalid="true"]')
    : null;
  const control =
    invalid ?? wrapper.querySelector<HTMLElement>('input:checked, input, select, textarea, button');
  control?.focus({ preventScroll: true });
  return true;
}

/** Wider than a phone (spec 000 section 9): every page's errors can be shown at once. */
const WIDER_THAN_A_PHONE = `(min-width: ${BREAKPOINT_MOBILE_PX + 1}px)`;

/**
 * Spec 001 section 1: one summary for the whole application while validating. Each error links
 * to '/{page}#{key}'; errors of keys that belong to no page are plain text. It takes the focus
 * after a failed submit, so it is read out at once. The page's own errors come first and in full;
 * each other page is a group with its count, which a phone shows folded so the summary does not
 * push the page's questions thousands of pixels down.
 */
export function ErrorSummary({
  summary,
  currentRoute,
  ref,
}: {
  summary: Summary;
  currentRoute: string;
  ref?: Ref<HTMLElement>;
}) {
  const titleId = useId();
  const { current, others } = summaryForPage(summary, currentRoute);
  return (
    <section ref={ref} tabIndex={-1} aria-labelledby={titleId} className={styles.summary}>
      <h2 id={titleId} className={styles.title}>
        {ERROR_SUMMARY_TITLE}
      </h2>
      <p className={styles.intro}>
        {summary.count === 1 ? 'One answer needs' : `${summary.count} answers need`} your attention.
        Fixes must be made on each page listed below; then submit your application again from Final
        Steps.
      </p>
      {current ? (
        <div className={styles.page}>
          <h3 className={styles.pageTitle}>On this page: {current.title}</h3>
          <SummaryLinks page={current} onThisPage />
        </div>
      ) : null}
      {others.map((page) => (
        <OtherPageErrors key={page.route} page={page} />
      ))}
      {summary.unplaced.length > 0 ? (
        <div className={styles.page}>
          <h3 className={styles.pageTitle}>Not on a page of the application</h3>
          <p className={styles.intro}>
            These problems do not correlate to a page, so there is no question to go to. If they
            stay after you submit again, please contact us through Help.
          </p>
          <ul className={styles.list}>
            {summary.unplaced.map((error) => (
              <li key={`${error.key}:${error.message}`}>{error.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function SummaryLinks({
  page,
  onThisPage,
  id,
  hidden,
}: {
  page: SummaryPage;
  onThisPage: boolean;
  id?: string;
  hidden?: boolean;
}) {
  return (
    <ul id={id} hidden={hidden} className={styles.list}>
      {page.links.map((link) => (
        <li key={`${link.key}:${link.message}`}>
          <Link
            to={link.href}
            onClick={() => {
              if (onThisPage) focusField(link.key);
            }}
          >
            {link.message}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Another page's errors behind a button that says how many there are; open unless on a phone. */
function OtherPageErrors({ page }: { page: SummaryPage }) {
  const [open, setOpen] = useState(() => window.matchMedia(WIDER_THAN_A_PHONE).matches);
  const listId = useId();
  const count = page.links.length;
  return (
    <div className={styles.page}>
      <h3 className={styles.pageTitle}>
        <button
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen(!open)}
        >
          <ChevronIcon />
          {page.title}: {count === 1 ? 'one answer' : `${count} answers`}
        </button>
      </h3>
      <SummaryLinks id={listId} hidden={!open} page={page} onThisPage={false} />
    </div>
  );
}

function ChevronIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      className={styles.chevron}
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M9 6l6 6-6 6" />
    </svg>
  );
}
