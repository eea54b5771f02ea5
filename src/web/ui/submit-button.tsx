import { Button } from './button';
import styles from './form-controls.module.css';
import { LoadingIndicator } from './loading-indicator';

/** The primary button of an account card; it says what is happening while the call runs. */
export function SubmitButton({
  pending,
  label,
  pendingLabel,
}: {
  pending: boolean;
  label: string;
  pendingLabel: string;
}) {
  return (
    <Button type="submit" variant="primary" className={styles.submit} disabled={pending}>
      {pending ? (
        <>
          <LoadingIndicator type="circles" size="xs" />
          {pendingLabel}
        </>
      ) : (
        label
      )}
    </Button>
  );
}
