import { useState } from 'react';
import {
  type AtLeastFilter,
  isAtLeastValue,
  type ListFilterRow,
  type YesNoValue,
} from '../../../shared/staff/list-filters';
import type { ListQuery } from '../../../shared/staff/list-query';
import { cx } from '../../ui/cx';
import authStyles from '../../ui/form-controls.module.css';
import { type ChoiceSources, choicesOf } from '../common/list-filter-choices';
import styles from '../shell/console.module.css';
import { choiceSelection, dateFilterChanges, SEVERAL } from './filter-values';
import list from './list.module.css';

/**
 * The control of one row of the filter table, by its kind: checkboxes for several choices, a
 * select for one choice or yes/no, two date boxes for a date range, a number box for at least.
 */
export function FilterControl({
  row,
  query,
  sources,
  onChange,
}: {
  row: ListFilterRow;
  query: ListQuery;
  sources: ChoiceSources;
  onChange: (change: Partial<ListQuery>) => void;
}) {
  const given: Readonly<Record<string, unknown>> = query;
  const valuesOf = (name: string) => {
    const value = given[name];
    return Array.isArray(value) ? value.map(String) : [];
  };
  const textOf = (name: string) => {
    const value = given[name];
    return typeof value === 'string' ? value : '';
  };
  switch (row.kind) {
    case 'choices': {
      const chosen = valuesOf(row.name);
      return (
        <fieldset className={list.fieldset}>
          <legend className={authStyles.label}>{row.label}</legend>
          <div className={list.checks}>
            {choicesOf(row.options, chosen, sources).map((choice) => (
              <label key={choice.value} className={list.check}>
                <input
                  type="checkbox"
                  checked={chosen.includes(choice.value)}
                  onChange={(event) =>
                    onChange({
                      [row.name]: event.target.checked
                        ? [...chosen, choice.value]
                        : chosen.filter((value) => value !== choice.value),
                    })
                  }
                />
                {choice.label}
              </label>
            ))}
          </div>
        </fieldset>
      );
    }
    case 'choice': {
      const chosen = valuesOf(row.name);
      return (
        <ChoiceFilter
          id={row.id}
          label={row.label}
          anyLabel={row.anyLabel}
          choices={choicesOf(row.options, chosen, sources)}
          chosen={chosen}
          onChange={(values) => onChange({ [row.name]: values })}
        />
      );
    }
    case 'date_range': {
      const fromParam = `${row.name}_from`;
      const toParam = `${row.name}_to`;
      return (
        <>
          <DateFilter
            id={row.fromId}
            label={row.fromLabel}
            value={textOf(fromParam)}
            onChange={(value) => onChange({ [fromParam]: value })}
          />
          <DateFilter
            id={row.toId}
            label={row.toLabel}
            value={textOf(toParam)}
            onChange={(value) => onChange({ [toParam]: value })}
          />
        </>
      );
    }
    case 'yes_no': {
      const choices: { value: YesNoValue; label: string }[] = [
        { value: '', label: row.anyLabel },
        { value: 'true', label: row.yesLabel },
        { value: 'false', label: row.noLabel },
      ];
      return (
        <div className={authStyles.field}>
          <label htmlFor={row.id} className={authStyles.label}>
            {row.label}
          </label>
          <select
            id={row.id}
            className={styles.select}
            value={textOf(row.name)}
            onChange={(event) => onChange({ [row.name]: event.target.value as YesNoValue })}
          >
            {choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      );
    }
    case 'at_least':
      return (
        <AtLeastFilterBox
          row={row}
          value={textOf(row.name)}
          onChange={(value) => onChange({ [row.name]: value })}
        />
      );
  }
}

/**
 * A number the list's values are at least. Typing `2.4` passes through `2.`; only a number the
 * filter takes (or an emptied box) changes the list, so no keystroke asks for a 400.
 */
export function AtLeastFilterBox({
  row,
  value,
  onChange,
}: {
  row: AtLeastFilter;
  value: string;
  onChange: (value: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  const [given, setGiven] = useState(value);
  if (value !== given) {
    setGiven(value);
    setDraft(value);
  }
  const hintId = `${row.id}-hint`;
  return (
    <div className={authStyles.field}>
      <label htmlFor={row.id} className={authStyles.label}>
        {row.label}
      </label>
      <p id={hintId} className={authStyles.hint}>
        {row.min} to {row.max}
      </p>
      <div className={authStyles.control}>
        <input
          id={row.id}
          type="number"
          className={cx(authStyles.input, list.numberInput)}
          inputMode="decimal"
          min={row.min}
          max={row.max}
          step={10 ** -row.decimals}
          value={draft}
          aria-describedby={hintId}
          onChange={(event) => {
            const next = event.target.value.trim();
            setDraft(event.target.value);
            // A browser may read a number half typed (`3.`, `-`) as empty: that is no change.
            if (event.target.validity.badInput) return;
            if (next !== value && (next === '' || isAtLeastValue(row, next))) onChange(next);
          }}
        />
      </div>
    </div>
  );
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
