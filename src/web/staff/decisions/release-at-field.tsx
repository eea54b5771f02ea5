import { useId } from 'react';
import authStyles from '../../ui/form-controls.module.css';
import { localInputOf } from './decision-logic';

/**
 * When to release decisions, in the reader's own time zone (named, since a release time is read
 * by someone in another office): one field for one application and for a list.
 */
export function ReleaseAtField({
  value,
  onChange,
}: {
  value: string;
  onChange: (at: string) => void;
}) {
  const id = useId();
  const hintId = useId();
  return (
    <div className={authStyles.field}>
      <label htmlFor={id} className={authStyles.label}>
        Release at
      </label>
      <p id={hintId} className={authStyles.hint}>
        Your time ({Intl.DateTimeFormat().resolvedOptions().timeZone}).
      </p>
      <div className={authStyles.control}>
        <input
          id={id}
          type="datetime-local"
          className={authStyles.input}
          value={value}
          min={localInputOf(new Date())}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
    </div>
  );
}
