import { type ReactNode, useMemo } from 'react';
import { DEFAULT_TEXTAREA_LIMIT } from '../../shared/constants';
import { fieldMaxLength } from '../../shared/form/answer-keys';
import { EMPTY_OPTION, offeredOptions } from '../../shared/form/choices';
import type { KeyResolver } from '../../shared/form/conditions';
import type { AnswerValue, Field, Item, OptionItem } from '../../shared/form/model';
import type { ResolvedInstance } from '../../shared/form/traverse';
import type { FieldAt } from '../../shared/form/validate';
import { cx } from '../ui/cx';
import { onDemand } from '../ui/on-demand';
import { QuestionLabel } from '../ui/question-label';
import { AddressLookup } from './address-lookup';
import { DateEntry } from './date-entry';
import type { FileQuestionProps } from './file-question';
import styles from './form.module.css';
import { useFormContext } from './form-context';
import { useAnswer, useCondition, useFieldErrors, useRequired } from './hooks';
import { ItemList } from './items';
import { formatPhone } from './phone';
import { SchoolSearch } from './school-search';

// The upload control (its checks, progress, conversion polling and dialogs) is not part of the
// first page, which has no file question: it loads when one first shows, or at idle after the
// first page is ready.
const fileQuestion = onDemand<FileQuestionProps>(() =>
  import('./file-question').then((module) => ({ default: module.FileQuestion })),
);
export const preloadFileQuestion = fileQuestion.preload;

export interface FieldPlace {
  prefix: string;
  instance: ResolvedInstance | null;
  resolveKey: KeyResolver;
  depth: number;
}

/** A field of the model: shown while its condition holds, with its revealed content after it. */
export function FieldView({ field, place }: { field: Field; place: FieldPlace }) {
  const shown = useCondition(field.showWhen, place.resolveKey);
  const { wrapField } = useFormContext();
  if (!shown) return null;
  const key = `${place.prefix}${field.key}`;
  const shownField = <ShownField field={field} place={place} answerKey={key} />;
  const node = wrapField ? wrapField(key, shownField) : shownField;
  // A question straight on the page gets a card of its own, like the page's sections.
  return place.depth === 0 ? <div className={cx(styles.section, styles.stack)}>{node}</div> : node;
}

interface ControlProps {
  field: Field;
  answerKey: string;
  value: AnswerValue | undefined;
  inputId: string;
  describedBy: string | undefined;
  invalid: boolean;
  required: boolean;
  resolveKey: KeyResolver;
}

function ShownField({
  field,
  place,
  answerKey,
}: {
  field: Field;
  place: FieldPlace;
  answerKey: string;
}) {
  const { store } = useFormContext();
  const value = useAnswer(answerKey);
  const setAnswer = (next: AnswerValue) => store.set(answerKey, next);
  // A shown field where it stands: what its validation and its required mark read.
  const resolved = useMemo<FieldAt>(
    () => ({ key: answerKey, field, instance: place.instance, resolveKey: place.resolveKey }),
    [answerKey, field, place.instance, place.resolveKey],
  );
  const errors = useFieldErrors(resolved);
  const invalid = errors.length > 0;
  const required = useRequired(resolved);
  const label = <QuestionLabel text={field.label} required={required} />;
  const inputId = `${answerKey}-input`;
  const helpId = field.help ? `${answerKey}-help` : undefined;
  const errorId = `${answerKey}-error`;
  const countId = field.widget === 'textarea' ? `${answerKey}-count` : undefined;
  const describedBy = [helpId, countId, invalid ? errorId : undefined].filter(Boolean).join(' ');
  const control: ControlProps = {
    field,
    answerKey,
    value,
    inputId,
    describedBy: describedBy || undefined,
    invalid,
    required,
    resolveKey: place.resolveKey,
  };

  const help = field.help ? (
    <p id={helpId} className={styles.help}>
      {field.help}
    </p>
  ) : null;
  const errorList = (
    <div id={errorId} className={styles.errors} aria-live="polite">
      {errors.map((message) => (
        <p key={message} className={styles.error}>
          <span aria-hidden="true" className={styles.errorIcon}>
            !
          </span>
          {message}
        </p>
      ))}
    </div>
  );

  let body: ReactNode;
  switch (field.widget) {
    case 'radio':
      body = <RadioGroup {...control} help={help} errors={errorList} />;
      break;
    case 'checkbox':
    case 'confirmCheckbox':
      body = (
        <>
          <div className={styles.checkRow}>
            <input
              id={inputId}
              type="checkbox"
              className={styles.checkbox}
              checked={value === true}
              onChange={(event) => setAnswer(event.target.checked)}
              aria-describedby={control.describedBy}
              aria-invalid={invalid || undefined}
              aria-required={required || undefined}
            />
            <label htmlFor={inputId} className={styles.checkLabel}>
              {label}
            </label>
          </div>
          {help}
          {errorList}
        </>
      );
      break;
    case 'confirmButton':
      body = (
        <>
          <button
            id={inputId}
            type="button"
            className={cx(styles.confirmButton, value === true && styles.confirmed)}
            aria-pressed={value === true}
            aria-describedby={control.describedBy}
            onClick={() => setAnswer(value !== true)}
          >
            {/* A toggle button cannot carry aria-required, so its mark is read out instead. */}
            <QuestionLabel text={field.label} required={required} spoken />
          </button>
          {help}
          {errorList}
        </>
      );
      break;
    case 'date':
      body = (
        <DateEntry
          legend={label}
          answerKey={answerKey}
          value={value}
          inputId={inputId}
          describedBy={control.describedBy}
          invalid={invalid}
          required={required}
          autoComplete={field.autoComplete}
          help={help}
          errors={errorList}
        />
      );
      break;
    case 'file':
      body = (
        <FileField
          field={field}
          answerKey={answerKey}
          inputId={inputId}
          help={help}
          helpId={helpId}
          errors={errorList}
          errorId={errorId}
          invalid={invalid}
          required={required}
        />
      );
      break;
    default:
      body = (
        <>
          <label htmlFor={inputId} className={styles.label}>
            {label}
          </label>
          {help}
          <TextLikeControl {...control} />
          {errorList}
        </>
      );
  }

  const revealed = revealedItems(field, value);
  return (
    <>
      <div
        id={answerKey}
        className={cx(styles.field, invalid && styles.fieldInvalid, wide(field) && styles.wide)}
      >
        {body}
      </div>
      {revealed ? (
        <div className={styles.revealed}>
          <ItemList
            items={revealed}
            prefix={place.prefix}
            instance={place.instance}
            resolveKey={place.resolveKey}
            depth={place.depth + 1}
          />
        </div>
      ) : null}
    </>
  );
}

/** Confirmation content once ticked or pressed; radio-specific content for the chosen answer. */
function revealedItems(field: Field, value: AnswerValue | undefined): readonly Item[] | null {
  if (field.reveals && value === true) return field.reveals;
  const content = field.optionContent?.[String(value ?? '')];
  return content && content.length > 0 ? content : null;
}

function wide(field: Field): boolean {
  return (
    field.widget === 'textarea' ||
    field.widget === 'radio' ||
    field.widget === 'checkbox' ||
    field.widget === 'confirmCheckbox' ||
    field.widget === 'confirmButton' ||
    field.widget === 'file'
  );
}

function TextLikeControl(props: ControlProps) {
  const { field, answerKey, value, inputId, describedBy, invalid, required } = props;
  const { store } = useFormContext();
  const text = typeof value === 'string' ? value : '';
  const common = {
    id: inputId,
    'aria-describedby': describedBy,
    'aria-invalid': invalid || undefined,
    'aria-required': required || undefined,
    autoComplete: field.autoComplete,
  };
  switch (field.widget) {
    case 'textarea': {
      const limit = field.characterLimit ?? DEFAULT_TEXTAREA_LIMIT;
      return (
        <>
          <textarea
            {...common}
            className={cx(styles.input, styles.textarea)}
            value={text}
            maxLength={limit}
            rows={6}
            onChange={(event) => store.set(answerKey, event.target.value)}
          />
          <p id={`${answerKey}-count`} className={styles.count}>
            Character count: {[...text].length} / {limit}
          </p>
        </>
      );
    }
    case 'phone':
      return (
        <input
          {...common}
          type="tel"
          inputMode="tel"
          className={cx(styles.input, styles.short)}
          value={text}
          maxLength={fieldMaxLength(field)}
          placeholder="(555) 555-5555"
          onChange={(event) => store.set(answerKey, formatPhone(event.target.value))}
        />
      );
    case 'select':
    case 'month':
    case 'year':
    case 'conditionalSelect':
      return <SelectControl {...props} />;
    default:
      if (field.lookup) {
        const Lookup = field.lookup.category === 'address' ? AddressLookup : SchoolSearch;
        return (
          <Lookup
            field={field}
            answerKey={answerKey}
            inputId={inputId}
            describedBy={describedBy}
            invalid={invalid}
            required={required}
          />
        );
      }
      return (
        <input
          {...common}
          type={field.widget === 'email' ? 'email' : 'text'}
          className={styles.input}
          value={text}
          maxLength={fieldMaxLength(field)}
          onChange={(event) => store.set(answerKey, event.target.value)}
        />
      );
  }
}

function SelectControl({
  field,
  answerKey,
  value,
  inputId,
  describedBy,
  invalid,
  required,
  resolveKey,
}: ControlProps) {
  const { store, currentYear } = useFormContext();
  const controllerKey = field.optionsFrom ? resolveKey(field.optionsFrom.controllerKey) : '';
  const controller = useAnswer(controllerKey);
  // A stored answer that is not among these shows as no choice; the validation asks again.
  const options = useMemo<readonly OptionItem[]>(() => {
    const offered = offeredOptions(
      field,
      currentYear,
      field.optionsFrom ? String(controller ?? '') : undefined,
    );
    return offered.length > 0 ? offered : [EMPTY_OPTION];
  }, [field, controller, currentYear]);
  return (
    <select
      id={inputId}
      className={cx(styles.input, styles.select)}
      value={typeof value === 'string' ? value : ''}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      autoComplete={field.autoComplete}
      onChange={(event) => store.set(answerKey, event.target.value)}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

function RadioGroup({
  field,
  answerKey,
  value,
  inputId,
  describedBy,
  invalid,
  required,
  help,
  errors,
}: ControlProps & { help: ReactNode; errors: ReactNode }) {
  const { store } = useFormContext();
  const options = (field.options ?? []).filter((option) => option.value !== '');
  return (
    <fieldset className={styles.radioGroup}>
      <legend className={styles.label}>
        <QuestionLabel text={field.label} required={required} />
      </legend>
      {help}
      <div className={cx(styles.radios, options.length <= 3 && styles.radiosInline)}>
        {options.map((option, index) => {
          const id = index === 0 ? inputId : `${inputId}-${index}`;
          return (
            <div key={option.value} className={styles.checkRow}>
              <input
                id={id}
                type="radio"
                className={styles.radio}
                name={answerKey}
                value={option.value}
                checked={value === option.value}
                onChange={() => store.set(answerKey, option.value)}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                // Native, since ARIA gives a single radio no aria-required; no form, so no bubble.
                required={required}
              />
              <label htmlFor={id} className={styles.checkLabel}>
                {option.label}
              </label>
            </div>
          );
        })}
      </div>
      {errors}
    </fieldset>
  );
}

function FileField(props: FileQuestionProps) {
  const FileQuestion = fileQuestion.useLoaded(true);
  if (FileQuestion) return <FileQuestion {...props} />;
  // Until its code arrives the question stands where it will, so the page does not shift.
  return (
    <fieldset className={styles.radioGroup}>
      <legend className={styles.label}>
        <QuestionLabel text={props.field.label} required={props.required} />
      </legend>
      {props.help}
      {props.errors}
    </fieldset>
  );
}
