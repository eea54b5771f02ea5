import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CONFLICT_KINDS, createConflictSchema } from '../../../shared/review/review-api';
import { ServerError } from '../../data/http-client';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import controls from '../../ui/form-controls.module.css';
import { QuestionLabel } from '../../ui/question-label';
import { FieldErrors } from '../../ui/text-field';
import { readersQuery } from '../committee/committee-calls';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import reading from './reading.module.css';
import { type ConflictView, readingCalls, readingKeys } from './reading-calls';

type Kind = (typeof CONFLICT_KINDS)[number];

const KIND_LABELS: Record<Kind, string> = {
  college: 'A college (CEEB code or name)',
  applicant: 'An application (its id)',
};

type Fields = 'reader_id' | 'value' | 'note';
type Errors = Partial<Record<Fields, string[]>>;

/** The form's values checked by the shared schema; each field's messages when refused. */
export function conflictErrors(values: {
  reader_id: string;
  kind: Kind;
  value: string;
  note: string;
}): Errors {
  const result = createConflictSchema.safeParse(values);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (field === 'reader_id' || field === 'value' || field === 'note')
      errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

/** Readers who must not read some applications: a college they are tied to, or one applicant. */
export function ConflictsSection() {
  const queryClient = useQueryClient();
  const titleId = useId();
  const conflicts = useQuery({ queryKey: readingKeys.conflicts, queryFn: readingCalls.conflicts });
  const readers = useQuery(readersQuery);
  const [readerId, setReaderId] = useState('');
  const [kind, setKind] = useState<Kind>('college');
  const [value, setValue] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: readingKeys.conflicts });
  const add = useMutation({
    mutationFn: readingCalls.addConflict,
    onSuccess: async () => {
      setValue('');
      setNote('');
      setStatus('Conflict of interest added.');
      await refresh();
    },
    onError: (error) => {
      if (error instanceof ServerError && error.errors) {
        const { reader_id, value: valueErrors, note: noteErrors } = error.errors;
        setErrors({
          ...(reader_id ? { reader_id } : {}),
          ...(valueErrors ? { value: valueErrors } : {}),
          ...(noteErrors ? { note: noteErrors } : {}),
        });
      }
      setFailure(serverMessage(error));
    },
  });
  const remove = useMutation({
    mutationFn: (conflict: ConflictView) => readingCalls.deleteConflict(conflict.id),
    onSuccess: async () => {
      setStatus('Conflict of interest deleted.');
      await refresh();
    },
    onError: (error) => setFailure(serverMessage(error)),
  });

  const readerNames = new Map((readers.data?.readers ?? []).map((r) => [r.id, r.name]));
  const offered = (readers.data?.readers ?? []).filter((reader) => !reader.disabled);
  const id = (name: string) => `${titleId}-${name}`;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (add.isPending) return;
    setStatus('');
    setFailure(null);
    const values = { reader_id: readerId, kind, value, note };
    const found = conflictErrors(values);
    setErrors(found);
    const first = (['reader_id', 'value', 'note'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(id(first))?.focus();
      return;
    }
    add.mutate({ ...values, value: value.trim(), note: note.trim() });
  };

  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        Conflicts of interest
      </h2>
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      {conflicts.isPending ? (
        <p className={styles.muted}>Loading the conflicts...</p>
      ) : conflicts.isError ? (
        <FormAlert message={serverMessage(conflicts.error)} />
      ) : conflicts.data.length === 0 ? (
        <p className={styles.muted}>No conflicts of interest recorded.</p>
      ) : (
        <div className={styles.tableFrame}>
          <table className={styles.table}>
            <caption className="visually-hidden">Conflicts of interest</caption>
            <thead>
              <tr>
                <th scope="col">Reader</th>
                <th scope="col">Not to read</th>
                <th scope="col">Note</th>
                <th scope="col">Added</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {conflicts.data.map((conflict) => {
                const who =
                  conflict.reader_name ?? readerNames.get(conflict.reader_id) ?? 'Unknown member';
                return (
                  <tr key={conflict.id}>
                    <th scope="row">{who}</th>
                    <td>
                      {conflict.kind === 'college' ? 'College' : 'Application'} {conflict.value}
                    </td>
                    <td>{conflict.note ?? ''}</td>
                    <td>{formatDateTime(conflict.created_at)}</td>
                    <td>
                      <Button
                        type="button"
                        variant="secondary"
                        className={styles.smallButton}
                        aria-label={`Delete: ${who}, ${conflict.value}`}
                        aria-disabled={remove.isPending || undefined}
                        onClick={() => {
                          if (remove.isPending) return;
                          setStatus('');
                          setFailure(null);
                          remove.mutate(conflict);
                        }}
                      >
                        Delete
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <h3 className={styles.subTitle}>Add a conflict of interest</h3>
      <form noValidate onSubmit={onSubmit} className={reading.rule}>
        <div className={controls.field}>
          <label htmlFor={id('reader_id')} className={controls.label}>
            <QuestionLabel text="Reader" required />
          </label>
          <select
            id={id('reader_id')}
            className={styles.select}
            value={readerId}
            required
            aria-invalid={errors.reader_id ? true : undefined}
            aria-describedby={`${id('reader_id')}-error`}
            onChange={(event) => setReaderId(event.target.value)}
          >
            <option value="">Choose a reader</option>
            {offered.map((reader) => (
              <option key={reader.id} value={reader.id}>
                {reader.name}
              </option>
            ))}
          </select>
          <FieldErrors id={`${id('reader_id')}-error`} errors={errors.reader_id ?? []} />
        </div>
        <fieldset className={reading.kinds}>
          <legend>Not to read</legend>
          {CONFLICT_KINDS.map((option) => (
            <label key={option} className={styles.checkbox}>
              <input
                type="radio"
                name={id('kind')}
                value={option}
                checked={kind === option}
                onChange={() => setKind(option)}
              />
              <span>{KIND_LABELS[option]}</span>
            </label>
          ))}
        </fieldset>
        {(
          [
            ['value', kind === 'college' ? 'College CEEB code or name' : 'Application id', true],
            ['note', 'Note (optional)', false],
          ] as const
        ).map(([field, label, required]) => (
          <div key={field} className={controls.field}>
            <label htmlFor={id(field)} className={controls.label}>
              <QuestionLabel text={label} required={required} />
            </label>
            <div className={cx(controls.control, errors[field] && controls.controlInvalid)}>
              <input
                id={id(field)}
                className={controls.input}
                value={field === 'value' ? value : note}
                maxLength={field === 'value' ? 200 : 500}
                required={required}
                aria-invalid={errors[field] ? true : undefined}
                aria-describedby={`${id(field)}-error`}
                onChange={(event) =>
                  field === 'value' ? setValue(event.target.value) : setNote(event.target.value)
                }
              />
            </div>
            <FieldErrors id={`${id(field)}-error`} errors={errors[field] ?? []} />
          </div>
        ))}
        <div>
          <Button type="submit" variant="primary" aria-disabled={add.isPending || undefined}>
            {add.isPending ? 'Adding...' : 'Add conflict'}
          </Button>
        </div>
      </form>
    </section>
  );
}
