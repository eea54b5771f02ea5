import buttonStyles from '../ui/button.module.css';
import { cx } from '../ui/cx';
import { LoadingIndicator } from '../ui/loading-indicator';
import styles from './auth-form.module.css';

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
    <button
      type="submit"
      className={cx(buttonStyles.button, buttonStyles.primary, styles.submit)}
      disabled={pending}
    >
      {pending ? (
        <>
          <LoadingIndicator type="circles" size="xs" />
          {pendingLabel}
        </>
      ) : (
        label
      )}
    </button>
  );
}
