import buttonStyles from './button.module.css';
import { cx } from './cx';
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
