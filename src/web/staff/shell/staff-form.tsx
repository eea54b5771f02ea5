import {
  type FormEvent,
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import type { z } from 'zod';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../../shared/api/errors';
import { ServerError, UnauthorizedError } from '../../data/http-client';
import authStyles from '../../ui/form-controls.module.css';
import { uniqueMessages } from '../../ui/form-state';
import { SubmitButton } from '../../ui/submit-button';
import { TextField, type TextFieldProps } from '../../ui/text-field';
import { type AccountForm, useAccountForm } from '../../ui/use-account-form';
import styles from './console.module.css';

type Values = Record<string, string>;

export const FORM_ERROR_SUMMARY_TITLE = 'There is a problem';

/** One field as the error summary names it: the input's id and the label it links with. */
export interface SummaryField {
  id: string;
  label: string;
}

export interface StaffForm<Form extends Values> extends AccountForm<Form> {
  /** Validates; with errors, shows the summary and focuses it, else calls `onValid`. */
  submit: (onValid: (data: Form) => void) => (event: FormEvent<HTMLFormElement>) => void;
  /** The summary of the fields' shown errors; focused after a refused submit. */
  summary: SummaryEntry[];
  summaryRef: Ref<HTMLElement>;
  /** Puts a failed call's field messages on its fields; returns the sentence for the form. */
  showServerError: (error: unknown) => string;
}

export interface SummaryEntry {
  id: string;
  label: string;
  message: string;
}

/**
 * An account form (the shared schema, errors shown once a field is left or a submit is tried)
 * whose refused submit moves the focus to a summary of the errors, read out at once, with a link
 * to each field.
 */
export function useStaffForm<Form extends Values>(
  schema: z.ZodType<Form>,
  initialValues: Form,
  /** The visible fields in screen order; hidden ones (an invitation's token) are left out. */
  fields: Readonly<Partial<Record<keyof Form & string, SummaryField>>>,
): StaffForm<Form> {
  type Field = keyof Form & string;
  const order = Object.keys(fields) as Field[];
  const form = useAccountForm<Form>(schema, initialValues, order);
  const summaryElement = useRef<HTMLElement | null>(null);
  const [focusRequest, setFocusRequest] = useState(0);

  useEffect(() => {
    if (focusRequest > 0) summaryElement.current?.focus();
  }, [focusRequest]);

  const summary: SummaryEntry[] = form.submitAttempted
    ? order.flatMap((name) =>
        uniqueMessages(form.field(name).errors).map((message) => ({
          id: fields[name]?.id ?? name,
          label: fields[name]?.label ?? name,
          message,
        })),
      )
    : [];

  return {
    ...form,
    summary,
    summaryRef: (element) => {
      summaryElement.current = element;
    },
    submit: (onValid) => (event) => {
      let valid = false;
      form.handleSubmit((data) => {
        valid = true;
        onValid(data);
      })(event);
      if (!valid) setFocusRequest((count) => count + 1);
    },
    showServerError: (error) => {
      if (error instanceof ServerError && error.errors) {
        for (const name of order) {
          const messages = error.errors[name];
          if (messages && messages.length > 0) form.setActionError(name, messages);
        }
      }
      return serverMessage(error);
    },
  };
}

/** The sentence to show for a failed call: the server's own, or the generic one. */
export function serverMessage(error: unknown): string {
  return error instanceof ServerError || error instanceof UnauthorizedError
    ? error.message
    : GENERIC_SERVER_ERROR_MESSAGE;
}

/** The errors of a refused submit, each linked to its field; it takes the focus to be read out. */
export function FormErrorSummary({
  entries,
  ref,
}: {
  entries: readonly SummaryEntry[];
  ref: Ref<HTMLElement>;
}) {
  const titleId = useId();
  if (entries.length === 0) return null;
  return (
    <section ref={ref} tabIndex={-1} aria-labelledby={titleId} className={styles.summary}>
      <h2 id={titleId} className={styles.summaryTitle}>
        {FORM_ERROR_SUMMARY_TITLE}
      </h2>
      <ul className={styles.summaryList}>
        {entries.map((entry) => (
          <li key={`${entry.id}:${entry.message}`}>
            <a
              href={`#${entry.id}`}
              onClick={(event) => {
                event.preventDefault();
                document.getElementById(entry.id)?.focus();
              }}
            >
              {entry.label}: {entry.message}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * A sentence about the whole form (a refused sign-in, a failed call). The live region is always
 * in the page, so a sentence that appears in it is announced.
 */
export function FormAlert({ message }: { message: string | null }) {
  return (
    <div role="alert" className={message ? `${styles.notice} ${styles.noticeError}` : undefined}>
      {message ? <p>{message}</p> : null}
    </div>
  );
}

/**
 * A card's form: the summary of a refused submit, the sentence about the whole form, then the
 * fields and the submit button. `onValid` runs with the checked values.
 */
export function CardForm<Form extends Values>({
  form,
  failure,
  onValid,
  pending,
  label,
  pendingLabel,
  beforeForm,
  children,
}: {
  form: StaffForm<Form>;
  failure: string | null;
  onValid: (data: Form) => void;
  pending: boolean;
  label: string;
  pendingLabel: string;
  /** Shown between the alerts and the form (another way in, such as single sign-on). */
  beforeForm?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <FormErrorSummary entries={form.summary} ref={form.summaryRef} />
      <FormAlert message={failure} />
      {beforeForm}
      <form className={authStyles.form} noValidate onSubmit={form.submit(onValid)}>
        {children}
        <SubmitButton pending={pending} label={label} pendingLabel={pendingLabel} />
      </form>
    </>
  );
}

/** The 6-digit code an authenticator app shows, a required field. */
export function AuthenticatorCodeField(
  props: Omit<
    TextFieldProps,
    'autoComplete' | 'inputMode' | 'maxLength' | 'spellCheck' | 'className' | 'required'
  >,
) {
  return (
    <TextField
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={6}
      spellCheck={false}
      className={authStyles.code}
      required
      markRequired
      {...props}
    />
  );
}

/** A required email address, typed as it is (no capitals, no spelling fixes). */
export function EmailField(
  props: Omit<TextFieldProps, 'type' | 'autoCapitalize' | 'spellCheck' | 'required'>,
) {
  return (
    <TextField
      type="email"
      autoCapitalize="none"
      spellCheck={false}
      required
      markRequired
      {...props}
    />
  );
}
