import type { ReactNode } from 'react';
import styles from './banner-area.module.css';

/** The slot for the welcome and status banners of spec 001 section 1. */
export function BannerArea({ children }: { children?: ReactNode }) {
  return (
    <section aria-label="Application messages" className={styles.banners}>
      {children}
    </section>
  );
}
