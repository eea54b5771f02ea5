import { useQuery } from '@tanstack/react-query';
import { queueQuery } from './review-calls';
import styles from './review-panel.module.css';

/** The open reads' count beside the navigation's "My queue"; nothing until it is known. */
export function QueueCount() {
  const queue = useQuery(queueQuery('open'));
  const count = queue.data?.open_count;
  if (count === undefined) return null;
  return (
    <span className={styles.navCount}>
      {count.toLocaleString('en-US')}
      <span className="visually-hidden"> open</span>
    </span>
  );
}
