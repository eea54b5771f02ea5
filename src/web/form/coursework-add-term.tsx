import { memo, useId, useMemo, useState } from 'react';
import {
  MAX_TERMS,
  type Season,
  TERM_STATUSES,
  type TermStatus,
  termName,
} from '../../shared/coursework/coursework';
import type { CourseworkAnswer } from '../../shared/coursework/coursework-answer';
import { Button } from '../ui/button';
import { cx } from '../ui/cx';
import {
  addTerm,
  SEASON_CHOICES,
  seasonLabel,
  statusLabel,
  suggestedTerm,
  termYears,
} from './coursework-edit';
import type { EditGrid } from './coursework-editor';
import styles from './coursework-grid.module.css';
import formStyles from './form.module.css';

type TermChoice = { season: Season; year: number; status: TermStatus };

/** One select of a term: season, year or status, with its visible label. */
export function TermSelect<T extends string | number>({
  label,
  value,
  choices,
  labelOf,
  onChange,
  describedBy,
  invalid,
  focusName,
}: {
  label: string;
  value: T;
  choices: readonly T[];
  labelOf: (choice: T) => string;
  onChange: (choice: T) => void;
  describedBy?: string | undefined;
  invalid?: boolean;
  focusName?: string;
}) {
  const id = useId();
  // A keystroke in a course redraws its term: the options stay the same elements, so React skips
  // them (a year list has some 80 for each of up to 30 terms).
  const options = useMemo(
    () =>
      choices.map((choice) => (
        <option key={String(choice)} value={String(choice)}>
          {labelOf(choice)}
        </option>
      )),
    [choices, labelOf],
  );
  return (
    <div className={styles.termControl}>
      <label htmlFor={id} className={styles.smallLabel}>
        {label}
      </label>
      <select
        id={id}
        className={cx(formStyles.input, formStyles.select, styles.termSelect)}
        value={String(value)}
        data-focus={focusName}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(event) => {
          const chosen = choices.find((choice) => String(choice) === event.target.value);
          if (chosen !== undefined) onChange(chosen);
        }}
      >
        {options}
      </select>
    </div>
  );
}

/**
 * Season, year and status of a term: the next term's before it is added, and a term's own while
 * it may change. `yearMessageId` names the messages about its year, when there are any.
 */
export function TermChoiceSelects({
  term,
  today,
  onChange,
  focusName,
  yearMessageId,
}: {
  term: TermChoice;
  today: string;
  onChange: (change: Partial<TermChoice>) => void;
  focusName?: string;
  yearMessageId?: string | undefined;
}) {
  const years = useMemo(() => termYears(today), [today]);
  return (
    <>
      <TermSelect
        label="Season"
        value={term.season}
        choices={SEASON_CHOICES}
        labelOf={seasonLabel}
        onChange={(season) => onChange({ season })}
        {...(focusName ? { focusName } : {})}
      />
      <TermSelect
        label="Year"
        value={term.year}
        choices={years}
        labelOf={String}
        onChange={(year) => onChange({ year })}
        describedBy={yearMessageId}
        invalid={yearMessageId !== undefined}
      />
      <TermSelect
        label="Status"
        value={term.status}
        choices={TERM_STATUSES}
        labelOf={statusLabel}
        onChange={(status) => onChange({ status })}
      />
    </>
  );
}

interface AddTermProps {
  answer: CourseworkAnswer;
  answerKey: string;
  today: string;
  full: boolean;
  edit: EditGrid;
}

/** Season, year and status of the next term, offered as the term after the last one. */
function AddTermFieldset({ answer, answerKey, today, full, edit }: AddTermProps) {
  const [chosen, setChosen] = useState<TermChoice | null>(null);
  const term = chosen ?? suggestedTerm(answer, today);
  const limitId = useId();
  const choose = (change: Partial<TermChoice>) => setChosen({ ...term, ...change });
  const add = () => {
    const index = answer.terms.length;
    edit(
      (current) => addTerm(current, term),
      `${answerKey}-t${index}-c0-subject`,
      `${termName(term)} added. Enter its first course.`,
    );
    setChosen(null);
  };
  return (
    <fieldset className={styles.addTerm}>
      <legend className={styles.smallLabel}>Add a term</legend>
      <div className={styles.termControls}>
        <TermChoiceSelects
          term={term}
          today={today}
          onChange={choose}
          focusName={`${answerKey}-add-term`}
        />
        <Button
          type="button"
          variant="secondary"
          className={styles.addTermButton}
          onClick={add}
          disabled={full}
          aria-describedby={full ? limitId : undefined}
        >
          Add term
        </Button>
      </div>
      {full ? (
        <p id={limitId} className={styles.limit}>
          No more terms can be added: the application takes {MAX_TERMS} terms at most for all
          colleges together.
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * What the controls read of the answer is its system, its number of terms and the last one's
 * season and year: a keystroke in a course leaves them as they are.
 */
function sameAddTerm(before: AddTermProps, after: AddTermProps): boolean {
  const last = (props: AddTermProps) => props.answer.terms.at(-1);
  return (
    before.answerKey === after.answerKey &&
    before.today === after.today &&
    before.full === after.full &&
    before.edit === after.edit &&
    before.answer.system === after.answer.system &&
    before.answer.terms.length === after.answer.terms.length &&
    last(before)?.season === last(after)?.season &&
    last(before)?.year === last(after)?.year
  );
}

export const AddTermControls = memo(AddTermFieldset, sameAddTerm);
