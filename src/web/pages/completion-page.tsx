import styles from './completion-page.module.css';

export function CompletionPage() {
  return (
    <div className={styles.card}>
      <h1>Application Submitted</h1>
      <p className={styles.message}>Your application was successfully submitted.</p>
    </div>
  );
}
