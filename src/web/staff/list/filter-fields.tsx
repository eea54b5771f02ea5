import { useState } from 'react';
import type { OptionItem } from '../../../shared/form/model';
import authStyles from '../../auth/auth-form.module.css';
import styles from '../shell/console.module.css';
import { choiceSelection, dateFilterChanges, SEVERAL } from './filter-values';

export function realOptions(options: readonly OptionItem[]): { value: string; label: string }[] {
  return options.filter((option) => option.value !== '');
}

export function ChoiceFilter({
  id,
  label,
  anyLabel,
  choices,
  chosen,
  onChange,
}: {
  id: string;
  label: string;
  anyLabel: string;
  choices: { value: string; label: string }[];
  chosen: readonly string[];
  onChange: (values: string[]) => void;
}) {
  const known = new Map(choices.map((choice) => [choice.value, choice.label]));
  const { value, unknown } = choiceSelection(chosen, known);
  return (
    <div className={authStyles.field}>
      <label htmlFor={id} className={authStyles.label}>
        {label}
      </label>
      <select
        id={id}
        className={styles.select}
        value={value}
        onChange={(event) => {
          if (event.target.value === SEVERAL) return;
          onChange(event.target.value === '' ? [] : [event.target.value]);
        }}
      >
        <option value="">{anyLabel}</option>
        {chosen.length > 1 ? (
          <option value={SEVERAL}>
            {chosen.map((item) => known.get(item) ?? item).join(' or ')}
          </option>
        ) : null}
        {unknown !== undefined ? <option value={unknown}>{unknown}</option> : null}
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A date filter. Typing a year into a date box passes through years like 0002 and 0020; only a
 * whole date (or an emptied box) changes the list.
 */
export function DateFilter({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  const [given, setGiven] = useState(value);
  if (value !== given) {
    setGiven(value);
    setDraft(value);
  }
  return (
    <div className={authStyles.field}>
      <label htmlFor={id} className={authStyles.label}>
        {label}
      </label>
      <div className={authStyles.control}>
        <input
          id={id}
          type="date"
          className={authStyles.input}
          value={draft}
          onChange={(event) => {
            const next = event.target.value;
            setDraft(next);
            if (dateFilterChanges(next, value)) {
              onChange(next);
            }
          }}
        />
      </div>
    </div>
  );
}
