import { type ReactNode, useRef } from 'react';
import styles from './auth-card.module.css';
import { useHeadingFocus } from './use-heading-focus';

interface AuthCardProps {
  title: string;
  /** A sentence under the title saying what this screen is for. */
  intro?: ReactNode;
  children?: ReactNode;
  /** Links to the other account screens, below a rule. */
  footer?: ReactNode;
}

/** The card that frames every account screen. */
export function AuthCard({ title, intro, children, footer }: AuthCardProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Create Account, Confirm Account and the like go with the screen they were on: the focus
  // goes to this screen's heading rather than being left on the body.
  useHeadingFocus(heading);
  return (
    <div className={styles.card}>
      <h1 ref={heading} tabIndex={-1} className={styles.title}>
        {title}
      </h1>
      {intro ? <p className={styles.intro}>{intro}</p> : null}
      {children}
      {footer ? <div className={styles.footer}>{footer}</div> : null}
    </div>
  );
}
