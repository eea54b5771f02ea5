import type { ReactNode } from 'react';
import styles from './auth-card.module.css';

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
  return (
    <div className={styles.card}>
      <h1 className={styles.title}>{title}</h1>
      {intro ? <p className={styles.intro}>{intro}</p> : null}
      {children}
      {footer ? <div className={styles.footer}>{footer}</div> : null}
    </div>
  );
}
