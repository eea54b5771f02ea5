import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  API_CLIENT_DEFAULT_RATE_LIMIT,
  API_CLIENT_MAX_RATE_LIMIT,
  API_CLIENT_NAME_MAX_LENGTH,
  type ApiClientSecretResponse,
  type CreateApiClientBody,
  createApiClientSchema,
} from '../../../shared/integration/api-clients-api';
import { API_SCOPE_NAMES, API_SCOPES, type ApiScope } from '../../../shared/integration/api-scopes';
import { ServerError } from '../../data/http-client';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import controls from '../../ui/form-controls.module.css';
import { QuestionLabel } from '../../ui/question-label';
import { FieldErrors } from '../../ui/text-field';
import styles from '../shell/console.module.css';
import { FormAlert, FormErrorSummary, type SummaryEntry, serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import own from './integrations.module.css';
import { apiClientCalls, apiClientKeys } from './integrations-calls';

type Field = 'name' | 'scopes' | 'rate_limit_per_minute';
type Errors = Partial<Record<Field, string[]>>;

const scopeId = (scope: ApiScope) => `client-scope-${scope.replace(':', '-')}`;

/** Where the error summary sends the focus for each field: the scopes' first box. */
const FIELDS: Record<Field, { id: string; label: string }> = {
  name: { id: 'client-name', label: 'Name' },
  scopes: { id: scopeId(API_SCOPE_NAMES[0] as ApiScope), label: 'Scopes' },
  rate_limit_per_minute: { id: 'client-rate-limit', label: 'Rate limit (calls a minute)' },
};
const ORDER: Field[] = ['name', 'scopes', 'rate_limit_per_minute'];

interface Values {
  name: string;
  scopes: ApiScope[];
  rateLimit: string;
}

/** The form's values as the server's schema reads them, or each field's messages. */
function check(values: Values): { body: CreateApiClientBody } | { errors: Errors } {
  const rate = values.rateLimit.trim();
  const body: CreateApiClientBody = {
    name: values.name,
    scopes: values.scopes,
    ...(rate === ''
      ? {}
      : { rate_limit_per_minute: /^\d+$/.test(rate) ? Number(rate) : Number.NaN }),
  };
  const parsed = createApiClientSchema.safeParse(body);
  if (parsed.success) return { body };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    if (!ORDER.includes(field)) continue;
    errors[field] = [...new Set([...(errors[field] ?? []), issue.message])];
  }
  return { errors };
}

/**
 * A new client: its name, what it may do and how often. The secret comes back once, and the
 * page shows it (onCreated); the form starts empty again.
 */
export function CreateClientForm({
  onStart,
  onCreated,
}: {
  onStart: () => void;
  onCreated: (reply: ApiClientSecretResponse) => void;
}) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const [values, setValues] = useState<Values>({ name: '', scopes: [], rateLimit: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [attempted, setAttempted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  const summaryRef = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (focusRequest > 0) summaryRef.current?.focus();
  }, [focusRequest]);

  const create = useMutation({
    mutationFn: (body: CreateApiClientBody) => stepUp.run(() => apiClientCalls.create(body)),
    onSuccess: async (reply) => {
      await queryClient.invalidateQueries({ queryKey: apiClientKeys.clients });
      setValues({ name: '', scopes: [], rateLimit: '' });
      setAttempted(false);
      setErrors({});
      onCreated(reply);
    },
    onError: (error) => {
      if (error instanceof StepUpCancelled) return;
      if (error instanceof ServerError && error.errors) {
        const fromServer: Errors = {};
        for (const field of ORDER) {
          const messages = error.errors[field];
          if (messages && messages.length > 0) fromServer[field] = messages;
        }
        setErrors(fromServer);
      }
      if (error instanceof ServerError && error.status === 409)
        setErrors({ name: [error.message] });
      setFailure(serverMessage(error));
    },
  });

  function change(next: Values) {
    setValues(next);
    if (attempted) {
      const result = check(next);
      setErrors('errors' in result ? result.errors : {});
    }
  }

  const summary: SummaryEntry[] = attempted
    ? ORDER.flatMap((field) =>
        (errors[field] ?? []).map((message) => ({ ...FIELDS[field], message })),
      )
    : [];

  const fieldError = (field: Field) => errors[field] ?? [];
  const describedBy = (field: Field, hint?: string) =>
    [hint, `${FIELDS[field].id}-error`].filter(Boolean).join(' ');

  return (
    <>
      <FormErrorSummary
        entries={summary}
        ref={(element) => {
          summaryRef.current = element;
        }}
      />
      <FormAlert message={failure} />
      <form
        noValidate
        aria-labelledby="create-client-title"
        onSubmit={(event) => {
          event.preventDefault();
          setAttempted(true);
          setFailure(null);
          const result = check(values);
          if ('errors' in result) {
            setErrors(result.errors);
            setFocusRequest((count) => count + 1);
            return;
          }
          setErrors({});
          onStart();
          create.mutate(result.body);
        }}
      >
        <div className={own.fields}>
          <div className={controls.field}>
            <label htmlFor={FIELDS.name.id} className={controls.label}>
              <QuestionLabel text={FIELDS.name.label} required />
            </label>
            <p id="client-name-hint" className={controls.hint}>
              Who uses the client and for what, as your colleagues will recognise it: “Banner
              nightly import”.
            </p>
            <div
              className={cx(
                controls.control,
                fieldError('name').length > 0 && controls.controlInvalid,
              )}
            >
              <input
                id={FIELDS.name.id}
                className={controls.input}
                type="text"
                autoComplete="off"
                required
                maxLength={API_CLIENT_NAME_MAX_LENGTH + 20}
                value={values.name}
                aria-invalid={fieldError('name').length > 0 || undefined}
                aria-describedby={describedBy('name', 'client-name-hint')}
                onChange={(event) => change({ ...values, name: event.target.value })}
              />
            </div>
            <FieldErrors id={`${FIELDS.name.id}-error`} errors={fieldError('name')} />
          </div>

          <div className={controls.field}>
            <fieldset className={own.scopes} aria-describedby={`${FIELDS.scopes.id}-error`}>
              <legend>
                <QuestionLabel text="Scopes: what the client may do" required spoken />
              </legend>
              {API_SCOPE_NAMES.map((scope) => (
                <label key={scope} className={styles.checkbox}>
                  <input
                    id={scopeId(scope)}
                    type="checkbox"
                    checked={values.scopes.includes(scope)}
                    onChange={(event) =>
                      change({
                        ...values,
                        scopes: event.target.checked
                          ? [...values.scopes, scope]
                          : values.scopes.filter((held) => held !== scope),
                      })
                    }
                  />
                  <span>
                    <span className={own.scopeName}>{scope}</span>
                    <span className={own.scopeDescription}>{API_SCOPES[scope]}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <FieldErrors id={`${FIELDS.scopes.id}-error`} errors={fieldError('scopes')} />
          </div>

          <div className={cx(controls.field, own.rateLimit)}>
            <label htmlFor={FIELDS.rate_limit_per_minute.id} className={controls.label}>
              <QuestionLabel text={FIELDS.rate_limit_per_minute.label} required={false} />
            </label>
            <p id="client-rate-limit-hint" className={controls.hint}>
              {`Leave empty for ${API_CLIENT_DEFAULT_RATE_LIMIT}. At most ${API_CLIENT_MAX_RATE_LIMIT.toLocaleString('en-US')}.`}
            </p>
            <div
              className={cx(
                controls.control,
                fieldError('rate_limit_per_minute').length > 0 && controls.controlInvalid,
              )}
            >
              <input
                id={FIELDS.rate_limit_per_minute.id}
                className={controls.input}
                type="text"
                inputMode="numeric"
                autoComplete="off"
                value={values.rateLimit}
                aria-invalid={fieldError('rate_limit_per_minute').length > 0 || undefined}
                aria-describedby={describedBy('rate_limit_per_minute', 'client-rate-limit-hint')}
                onChange={(event) => change({ ...values, rateLimit: event.target.value })}
              />
            </div>
            <FieldErrors
              id={`${FIELDS.rate_limit_per_minute.id}-error`}
              errors={fieldError('rate_limit_per_minute')}
            />
          </div>
        </div>

        <div className={styles.formActions}>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create client'}
          </Button>
        </div>
      </form>
    </>
  );
}
