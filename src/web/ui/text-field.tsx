import type { InputHTMLAttributes, ReactNode } from 'react';
import { cx } from './cx';
import styles from './form-controls.module.css';
import { QuestionLabel } from './question-label';
import type { FieldBinding } from './use-account-form';

type NativeInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange' | 'onBlur' | 'aria-invalid' | 'aria-describedby' | 'children'
>;

export interface TextFieldProps extends NativeInputProps {
  id: string;
  label: string;
  binding: FieldBinding;
  hint?: ReactNode;
  /** A control inside the input's frame, such as the password toggle. */
  adornment?: ReactNode;
  /** Ids of further descriptions (such as the password requirements). */
  describedBy?: string[];
  /** Overrides "has shown errors" for aria-invalid, when some failures show elsewhere. */
  invalid?: boolean;
  /** Shown below the errors, inside the field's block. */
  children?: ReactNode;
  /**
   * Shows "(required)" after the label (decision 024), as the staff console does; the applicant's
   * account screens follow their specification, which marks nothing.
   */
  markRequired?: boolean;
}

/** A labelled input whose hint and errors are tied to it (aria-describedby, aria-invalid). */
export function TextField({
  id,
  label,
  binding,
  hint,
  adornment,
  describedBy = [],
  invalid: invalidOverride,
  children,
  markRequired = false,
  className,
  ...inputProps
}: TextFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const invalid = invalidOverride ?? binding.errors.length > 0;

  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        <QuestionLabel text={label} required={markRequired} />
      </label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <div className={cx(styles.control, invalid && styles.controlInvalid)}>
        <input
          {...inputProps}
          id={id}
          ref={binding.inputRef}
          className={cx(styles.input, className)}
          value={binding.value}
          onChange={(event) => binding.onValueChange(event.target.value)}
          onBlur={binding.onBlur}
          aria-invalid={invalid || undefined}
          aria-describedby={[hintId, ...describedBy, errorId].filter(Boolean).join(' ')}
        />
        {adornment}
      </div>
      <FieldErrors id={errorId} errors={binding.errors} />
      {children}
    </div>
  );
}

/**
 * The field's messages. The live region is always in the page, so a message that appears is
 * announced; it is also the input's description, so it is read again on focus.
 */
export function FieldErrors({ id, errors }: { id: string; errors: readonly string[] }) {
  return (
    <div id={id} className={styles.errors} aria-live="polite">
      {errors.map((message) => (
        <p key={message} className={styles.error}>
          <ErrorIcon />
          <span>{message}</span>
        </p>
      ))}
    </div>
  );
}

export function ErrorIcon() {
  return (
    <svg
      className={styles.errorIcon}
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 20 20"
      width="18"
      height="18"
    >
      <circle cx="10" cy="10" r="9" fill="currentColor" />
      <path d="M10 5.5v5.5" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
      <circle cx="10" cy="14.25" r="1.25" fill="#fff" />
    </svg>
  );
}
