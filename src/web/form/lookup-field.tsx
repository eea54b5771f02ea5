import { useLayoutEffect, useRef } from 'react';
import { fieldMaxLength } from '../../shared/form/answer-keys';
import type { Field } from '../../shared/form/model';
import { ownRecordField } from '../../shared/lookup/lookup-answers';
import { onDemand } from '../ui/on-demand';
import styles from './form.module.css';
import { useFormContext } from './form-context';
import { useAnswer } from './hooks';

// react-select and its styling engine are not part of the first page: every lookup field starts
// as a plain text input that already saves what is typed, and the search widget loads the first
// time the applicant reaches for one (focus, pointer or touch), then replaces them all.
const lookupCombobox = onDemand(() => import('./lookup-combobox'));
const loadCombobox = lookupCombobox.preload;

export interface LookupFieldProps {
  field: Field;
  /** The field's answer key, with its repeat prefix. */
  answerKey: string;
  inputId: string;
  describedBy: string | undefined;
  invalid: boolean;
  required: boolean;
  placeholder: string;
  guidance: string;
}

/** A field of the model with a `lookup`: the search widget once loaded, a plain input until then. */
export function LookupField(props: LookupFieldProps) {
  const { field, answerKey } = props;
  const Combobox = lookupCombobox.useLoaded(false);
  const hadFocus = useRef(false);
  const binding = field.lookup;
  if (!binding) return null;
  if (!Combobox) return <PlainInput {...props} hadFocus={hadFocus} />;
  return (
    <Combobox
      answerKey={answerKey}
      prefix={answerKey.slice(0, answerKey.length - field.key.length)}
      binding={binding}
      ownField={ownRecordField(binding, field.key)}
      inputId={props.inputId}
      describedBy={props.describedBy}
      invalid={props.invalid}
      required={props.required}
      maxLength={fieldMaxLength(field)}
      placeholder={props.placeholder}
      guidance={props.guidance}
      takeFocus={hadFocus}
    />
  );
}

function PlainInput(props: LookupFieldProps & { hadFocus: { current: boolean } }) {
  const { field, answerKey, hadFocus } = props;
  const { store } = useFormContext();
  const value = useAnswer(answerKey);
  const input = useRef<HTMLInputElement>(null);
  // The widget that replaces this input takes the focus if this one had it.
  useLayoutEffect(() => {
    const element = input.current;
    return () => {
      hadFocus.current = element !== null && document.activeElement === element;
    };
  }, [hadFocus]);
  return (
    <input
      ref={input}
      id={props.inputId}
      type="text"
      className={styles.input}
      value={typeof value === 'string' ? value : ''}
      maxLength={fieldMaxLength(field)}
      placeholder={props.placeholder}
      aria-describedby={props.describedBy}
      aria-invalid={props.invalid || undefined}
      aria-required={props.required || undefined}
      onFocus={loadCombobox}
      onPointerEnter={loadCombobox}
      onTouchStart={loadCombobox}
      onChange={(event) => store.set(answerKey, event.target.value)}
    />
  );
}
