import { Fragment } from 'react';
import type { Answers, AnswerValue, Block, Field } from '../../../shared/form/model';
import { type ResolvedField, resolvePage } from '../../../shared/form/resolve';
import type { ValidationErrors } from '../../../shared/form/validate';
import type { ReviewForm } from '../../../shared/review/review-form';
import { cx } from '../../ui/cx';
import { QuestionLabel } from '../../ui/question-label';
import { characterCountText } from './review-logic';
import styles from './review-panel.module.css';

/** The one page of a review form, with what is shown for these answers (conditions hide fields). */
export function shownFields(form: ReviewForm, answers: Answers): ResolvedField[] {
  const page = form.model.pages[0];
  if (!page) return [];
  return resolvePage(page, { answers, addAnother: {}, tabs: {}, isLoggedIn: true }).filter(
    (place) => place.visible,
  );
}

function isRequired(field: Field): boolean {
  return (field.rules ?? []).some((rule) => rule.type === 'required');
}

/** The sections of the form by id, to title the fields the walk says belong to one. */
function sectionsOf(form: ReviewForm): Map<string, Block> {
  const sections = new Map<string, Block>();
  for (const item of form.model.pages[0]?.items ?? [])
    if (item.kind === 'block') sections.set(item.id, item);
  return sections;
}

/** Runs of fields that stand in the same section, in order. */
function bySection(
  shown: readonly ResolvedField[],
): { groupId: string | null; fields: ResolvedField[] }[] {
  const runs: { groupId: string | null; fields: ResolvedField[] }[] = [];
  for (const place of shown) {
    const last = runs.at(-1);
    if (last && last.groupId === place.groupId) last.fields.push(place);
    else runs.push({ groupId: place.groupId, fields: [place] });
  }
  return runs;
}

export interface FieldsProps {
  form: ReviewForm;
  answers: Answers;
  errors: ValidationErrors;
  onChange: (key: string, value: AnswerValue) => void;
  /** The id of a field's first control, which the error summary links to. */
  controlId: (key: string) => string;
  disabled?: boolean;
}

/** The review form drawn with native fields, walked with the form engine's one traversal. */
export function ReviewFields(props: FieldsProps) {
  const shown = shownFields(props.form, props.answers);
  const sections = sectionsOf(props.form);
  return (
    <>
      {bySection(shown).map((run) => {
        const section = run.groupId ? sections.get(run.groupId) : undefined;
        const fields = run.fields.map((place) => (
          <ReviewField key={place.key} place={place} {...props} />
        ));
        if (!section) return <Fragment key={run.fields[0]?.key}>{fields}</Fragment>;
        const titleId = props.controlId(`section-${section.id}`);
        return (
          <section key={section.id} aria-labelledby={titleId} className={styles.formSection}>
            <h3 id={titleId} className={styles.formSectionTitle}>
              {section.title}
            </h3>
            {section.description ? <p className={styles.help}>{section.description}</p> : null}
            {fields}
          </section>
        );
      })}
    </>
  );
}

function ReviewField({
  place,
  form,
  answers,
  errors,
  onChange,
  controlId,
  disabled,
}: FieldsProps & { place: ResolvedField }) {
  const { key, field } = place;
  const id = controlId(key);
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const messages = errors[key] ?? [];
  const invalid = messages.length > 0;
  const required = isRequired(field);
  const value = answers[key];
  const text = typeof value === 'string' ? value : '';
  const help = field.help ? (
    <p id={helpId} className={styles.help}>
      {field.help}
    </p>
  ) : null;
  const error = invalid ? (
    <p id={errorId} className={styles.error}>
      {messages.map((message) => (
        <span key={message}>
          <span className="visually-hidden">Error: </span>
          {message}
        </span>
      ))}
    </p>
  ) : null;
  const describedBy = cx(field.help && helpId, invalid && errorId) || undefined;
  const isScore = form.criteria.some((criterion) => criterion.key === key);

  if (field.widget === 'radio') {
    return (
      <fieldset
        className={cx(styles.field, styles.fieldset, invalid && styles.invalid)}
        aria-describedby={describedBy}
        data-key={key}
      >
        <legend className={styles.label}>
          <QuestionLabel text={field.label} required={required} spoken />
        </legend>
        {help}
        {error}
        <div className={isScore ? styles.scale : styles.choices}>
          {(field.options ?? []).map((option, index) => {
            const optionId = index === 0 ? id : `${id}-${index}`;
            const words = option.label.startsWith(option.value)
              ? option.label.slice(option.value.length).trim()
              : option.label;
            return (
              <span key={option.value} className={isScore ? styles.point : styles.choice}>
                <input
                  id={optionId}
                  type="radio"
                  name={id}
                  value={option.value}
                  checked={text === option.value}
                  disabled={disabled}
                  aria-invalid={invalid || undefined}
                  onChange={() => onChange(key, option.value)}
                />
                {isScore ? (
                  <label htmlFor={optionId}>
                    <span className={styles.pointValue}>{option.value}</span>
                    {words ? <span className={styles.pointWords}>{words}</span> : null}
                  </label>
                ) : (
                  <label htmlFor={optionId}>{option.label}</label>
                )}
              </span>
            );
          })}
        </div>
      </fieldset>
    );
  }

  const label = (
    <label htmlFor={id} className={styles.label}>
      <QuestionLabel text={field.label} required={required} />
    </label>
  );
  if (field.widget === 'select') {
    return (
      <div className={cx(styles.field, invalid && styles.invalid)} data-key={key}>
        {label}
        {help}
        {error}
        <select
          id={id}
          className={styles.select}
          value={text}
          disabled={disabled}
          required={required}
          aria-required={required || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(key, event.target.value)}
        >
          {(field.options ?? []).map((option) => (
            <option key={option.value} value={option.value}>
              {option.value === '' ? 'Choose...' : option.label}
            </option>
          ))}
        </select>
      </div>
    );
  }
  if (field.widget === 'textarea') {
    const limit = field.characterLimit ?? 1500;
    const countId = `${id}-count`;
    return (
      <div className={cx(styles.field, invalid && styles.invalid)} data-key={key}>
        {label}
        {help}
        {error}
        <textarea
          id={id}
          className={styles.textarea}
          value={text}
          rows={5}
          maxLength={limit}
          disabled={disabled}
          required={required}
          aria-required={required || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={cx(describedBy, countId)}
          onChange={(event) => onChange(key, event.target.value)}
        />
        <p id={countId} className={styles.count}>
          {characterCountText(text.length, limit)}
        </p>
      </div>
    );
  }
  return (
    <div className={cx(styles.field, invalid && styles.invalid)} data-key={key}>
      {label}
      {help}
      {error}
      <input
        id={id}
        type="text"
        className={styles.input}
        value={text}
        maxLength={field.maxLength ?? 200}
        disabled={disabled}
        required={required}
        aria-required={required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(key, event.target.value)}
      />
    </div>
  );
}

/** A submitted read's answers as text: each shown question with the words of its answer. */
export function ReadAnswers({ form, answers }: { form: ReviewForm; answers: Answers }) {
  const shown = shownFields(form, answers);
  return (
    <dl className={styles.answers}>
      {shown.map(({ key, field }) => {
        const value = answers[key];
        const raw = typeof value === 'string' ? value : value ? 'Yes' : '';
        const option = field.options?.find((candidate) => candidate.value === raw && raw !== '');
        return (
          <div key={key}>
            <dt>{field.label}</dt>
            <dd>
              {option ? (
                option.label
              ) : raw === '' ? (
                <span className={styles.muted}>Not answered</span>
              ) : (
                raw
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
