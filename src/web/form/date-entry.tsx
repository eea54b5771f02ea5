import { type FocusEvent, type ReactNode, useState } from 'react';
import type { AnswerValue } from '../../shared/form/model';
import { cx } from '../ui/cx';
import styles from './date-entry.module.css';
import { type DateParts, partsOfIsoDate, readDateParts } from './date-parts';
import formStyles from './form.module.css';
import { useFormContext } from './form-context';

export interface DateEntryProps {
  legend: ReactNode;
  answerKey: string;
  value: AnswerValue | undefined;
  /** The Day box's id: the error summary focuses the first input of the field. */
  inputId: string;
  describedBy: string | undefined;
  invalid: boolean;
  required: boolean;
  autoComplete: string | undefined;
  help: ReactNode;
  errors: ReactNode;
}

interface Draft {
  parts: DateParts;
  /** The stored answer these boxes were last in step with. */
  answer: string;
}

const BOXES = [
  { part: 'day', label: 'Day', suffix: '', bday: 'bday-day', width: styles.twoDigits },
  { part: 'month', label: 'Month', suffix: '-month', bday: 'bday-month', width: styles.twoDigits },
  { part: 'year', label: 'Year', suffix: '-year', bday: 'bday-year', width: styles.fourDigits },
] as const;

/**
 * A date as three boxes, Day, Month and Year (the GOV.UK Design System's date input, decision
 * 022). The boxes keep whatever is typed, so a half-typed year is neither saved nor wiped: the
 * answer becomes a real `YYYY-MM-DD` date once the boxes make one, and '' when all three are
 * emptied or are left holding something else.
 */
export function DateEntry({
  legend,
  answerKey,
  value,
  inputId,
  describedBy,
  invalid,
  required,
  autoComplete,
  help,
  errors,
}: DateEntryProps) {
  const { store } = useFormContext();
  const stored = typeof value === 'string' ? value : '';
  const [draft, setDraft] = useState<Draft>(() => ({
    parts: partsOfIsoDate(stored),
    answer: stored,
  }));
  let current = draft;
  // An answer changed from elsewhere (loaded, cleared with hidden content, a new session) wins.
  if (draft.answer !== stored) {
    current = { parts: partsOfIsoDate(stored), answer: stored };
    setDraft(current);
  }

  const hintId = `${inputId}-hint`;
  const boxDescribedBy = [hintId, describedBy].filter(Boolean).join(' ');

  function typeInBox(part: keyof DateParts, text: string) {
    const parts = { ...current.parts, [part]: text };
    const reading = readDateParts(parts);
    const answer =
      reading.kind === 'date' ? reading.isoDate : reading.kind === 'empty' ? '' : current.answer;
    setDraft({ parts, answer });
    if (answer !== stored) store.set(answerKey, answer);
  }

  function leaveBoxes(event: FocusEvent<HTMLFieldSetElement>) {
    const next = event.relatedTarget;
    if (next instanceof Node && event.currentTarget.contains(next)) return;
    // Switching to another app or window is not leaving the question; focus comes back to it.
    if (next === null && !document.hasFocus()) return;
    if (readDateParts(current.parts).kind !== 'notADate') return;
    // Spec 001 section 4 clears an answer that is not a real date; it judges the finished value,
    // and leaving the three boxes finishes it. What was typed stays in view to be corrected.
    setDraft({ parts: current.parts, answer: '' });
    if (stored !== '') store.set(answerKey, '');
  }

  return (
    <fieldset className={styles.fieldset} onBlur={leaveBoxes}>
      <legend className={formStyles.label}>{legend}</legend>
      {help}
      <p id={hintId} className={formStyles.help}>
        For example, 27 3 2007
      </p>
      <div className={styles.boxes}>
        {BOXES.map((box) => {
          const id = `${inputId}${box.suffix}`;
          return (
            <div key={box.part} className={styles.box}>
              <label htmlFor={id} className={styles.boxLabel}>
                {box.label}
              </label>
              <input
                id={id}
                type="text"
                inputMode="numeric"
                spellCheck={false}
                className={cx(formStyles.input, styles.input, box.width)}
                value={current.parts[box.part]}
                autoComplete={autoComplete === 'bday' ? box.bday : undefined}
                aria-describedby={boxDescribedBy}
                aria-invalid={invalid || undefined}
                aria-required={required || undefined}
                onChange={(event) => typeInBox(box.part, event.target.value)}
              />
            </div>
          );
        })}
      </div>
      {errors}
    </fieldset>
  );
}
