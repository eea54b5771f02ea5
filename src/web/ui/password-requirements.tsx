import {
  passwordRequirementStates,
  type RequirementState,
} from '../../shared/accounts/account-forms';
import { cx } from './cx';
import styles from './form-controls.module.css';

const STATE_TEXT: Record<RequirementState, string> = {
  inactive: '',
  error: ' (not met)',
  success: ' (met)',
};

const stateClass: Record<RequirementState, string | undefined> = {
  inactive: styles.requirementInactive,
  error: styles.requirementError,
  success: styles.requirementSuccess,
};

/**
 * The six rows under a new password (spec 000 section 5): inactive while the password is empty,
 * error while a rule fails, success once it holds. Each row says its state in words and with an
 * icon, not by colour alone; a polite summary tells screen-reader users how far they are.
 */
export function PasswordRequirements({ id, password }: { id: string; password: string }) {
  const rows = passwordRequirementStates(password);
  const met = rows.filter((row) => row.state === 'success').length;
  const titleId = `${id}-title`;

  return (
    <div className={styles.requirements}>
      <p id={titleId} className={styles.requirementsTitle}>
        Your password:
      </p>
      <ul id={id} className={styles.requirementList} aria-labelledby={titleId}>
        {rows.map((row) => (
          <li
            key={row.id}
            className={cx(styles.requirement, stateClass[row.state])}
            data-state={row.state}
          >
            <RequirementIcon state={row.state} />
            <span>
              {row.message}
              <span className="visually-hidden">{STATE_TEXT[row.state]}</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="visually-hidden" aria-live="polite">
        {password === '' ? '' : `${met} of ${rows.length} password requirements met.`}
      </p>
    </div>
  );
}

function RequirementIcon({ state }: { state: RequirementState }) {
  return (
    <svg
      className={styles.requirementIcon}
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 20 20"
      width="18"
      height="18"
    >
      {state === 'success' ? (
        <>
          <circle cx="10" cy="10" r="9" fill="currentColor" />
          <path
            d="M6 10.5l2.75 2.75L14 8"
            fill="none"
            stroke="#fff"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </>
      ) : state === 'error' ? (
        <>
          <circle cx="10" cy="10" r="9" fill="currentColor" />
          <path
            d="M7 7l6 6M13 7l-6 6"
            fill="none"
            stroke="#fff"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </>
      ) : (
        <circle cx="10" cy="10" r="8" fill="none" stroke="currentColor" strokeWidth="2" />
      )}
    </svg>
  );
}
