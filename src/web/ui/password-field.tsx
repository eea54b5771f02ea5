import { useState } from 'react';
import styles from './form-controls.module.css';
import { TextField, type TextFieldProps } from './text-field';

interface PasswordFieldProps extends Omit<TextFieldProps, 'type' | 'adornment'> {
  /** Names the toggle: "Show password", "Hide password". */
  toggleNoun?: string;
}

/** A password input with a show/hide toggle (spec 000 section 5). */
export function PasswordField({ toggleNoun = 'password', id, ...props }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);

  return (
    <TextField
      {...props}
      id={id}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      className={styles.inputWithToggle}
      adornment={
        <button
          type="button"
          className={styles.toggle}
          aria-controls={id}
          aria-pressed={visible}
          aria-label={`${visible ? 'Hide' : 'Show'} ${toggleNoun}`}
          onClick={() => setVisible((current) => !current)}
        >
          <EyeIcon crossed={visible} />
          <span aria-hidden="true">{visible ? 'Hide' : 'Show'}</span>
        </button>
      }
    />
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {crossed ? <path d="M4 4l16 16" /> : null}
    </svg>
  );
}
