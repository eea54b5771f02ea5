import { type FocusEvent, type FormEvent, useCallback, useMemo, useRef, useState } from 'react';
import type { z } from 'zod';
import { formErrors } from '../../shared/accounts/account-forms';
import { type ErrorMap, firstFieldWithErrors, shownErrors } from './form-state';

type Values = Record<string, string>;

export interface FieldBinding {
  value: string;
  errors: string[];
  onValueChange: (value: string) => void;
  onBlur: (event: FocusEvent<HTMLInputElement>) => void;
  inputRef: (element: HTMLInputElement | null) => void;
}

export interface AccountForm<Form extends Values> {
  values: Form;
  /** Rule errors of every field, shown or not. */
  errors: ErrorMap<keyof Form & string>;
  submitAttempted: boolean;
  field: (name: keyof Form & string) => FieldBinding;
  /** An action's own message on a field (e.g. the resend check), shown at once, focused. */
  setActionError: (name: keyof Form & string, messages: string[]) => void;
  focus: (name: keyof Form & string) => void;
  /** Validates; with errors, refuses and focuses the first one, else calls `onValid`. */
  handleSubmit: (onValid: (data: Form) => void) => (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * The state of one account form. Every change is validated with the shared schema (spec 000
 * section 5), the same one the server uses; a field shows its errors once left or after a
 * submit attempt. `fields` lists the visible fields in screen order.
 */
export function useAccountForm<Form extends Values>(
  schema: z.ZodType<Form>,
  initialValues: Form,
  fields: ReadonlyArray<keyof Form & string>,
): AccountForm<Form> {
  type Field = keyof Form & string;
  const [values, setValues] = useState<Form>(initialValues);
  const [touched, setTouched] = useState<ReadonlySet<Field>>(() => new Set());
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const [actionErrors, setActionErrors] = useState<ErrorMap<Field>>({});
  const inputs = useRef(new Map<Field, HTMLInputElement>());

  const errors = useMemo(() => formErrors(schema, values) as ErrorMap<Field>, [schema, values]);

  const focus = useCallback((name: Field) => {
    inputs.current.get(name)?.focus();
  }, []);

  const field = (name: Field): FieldBinding => ({
    value: values[name] ?? '',
    errors: shownErrors(name, errors, actionErrors, submitAttempted || touched.has(name)),
    onValueChange: (value) => {
      setValues((current) => ({ ...current, [name]: value }));
      setActionErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
    },
    onBlur: (event) => {
      // Leaving for a button (submit, resend, the password toggle): that action validates on
      // its own, and showing the errors now would move the button away from under the pointer
      // between mouse down and up, so the click would be lost.
      if (event.relatedTarget instanceof HTMLButtonElement) {
        return;
      }
      setTouched((current) => (current.has(name) ? current : new Set(current).add(name)));
    },
    inputRef: (element) => {
      if (element) {
        inputs.current.set(name, element);
      } else {
        inputs.current.delete(name);
      }
    },
  });

  const setActionError = (name: Field, messages: string[]) => {
    setActionErrors((current) => ({ ...current, [name]: messages }));
    focus(name);
  };

  const handleSubmit = (onValid: (data: Form) => void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitAttempted(true);
    setActionErrors({});
    const result = schema.safeParse(values);
    if (!result.success) {
      const first = firstFieldWithErrors(fields, errors);
      if (first) {
        focus(first);
      }
      return;
    }
    onValid(result.data);
  };

  return { values, errors, submitAttempted, field, setActionError, focus, handleSubmit };
}
