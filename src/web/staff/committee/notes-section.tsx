import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { type ApplicationNote, createNoteSchema } from '../../../shared/review/review-api';
import { ServerError } from '../../data/http-client';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import controls from '../../ui/form-controls.module.css';
import { QuestionLabel } from '../../ui/question-label';
import { FieldErrors } from '../../ui/text-field';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import committee from './committee.module.css';
import { committeeCalls, committeeKeys, newestFirst } from './committee-calls';

export const NOTES_PRIVACY = 'Notes are seen by staff only, never by the applicant.';

/** What is wrong with a note before it is sent: the shared schema's messages, as the server's. */
export function noteErrors(body: string): string[] {
  const result = createNoteSchema.safeParse({ body });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

/** The server's messages for the note's field, or none when the failure is not about it. */
function bodyErrorsOf(error: unknown): string[] {
  return error instanceof ServerError ? (error.errors?.body ?? []) : [];
}

/** An application's internal notes, newest first, and a form to add one. */
export function NotesSection({ applicationId }: { applicationId: string }) {
  const queryClient = useQueryClient();
  const notes = useQuery({
    queryKey: committeeKeys.notes(applicationId),
    queryFn: () => committeeCalls.notes(applicationId),
    refetchOnMount: 'always',
  });
  const [body, setBody] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const fieldId = useId();
  const add = useMutation({
    mutationFn: (text: string) => committeeCalls.addNote(applicationId, text),
    onSuccess: async () => {
      setBody('');
      setStatus('Note added.');
      await queryClient.invalidateQueries({ queryKey: committeeKeys.notes(applicationId) });
    },
    onError: (error) => {
      const fieldErrors = bodyErrorsOf(error);
      if (fieldErrors.length > 0) {
        setErrors(fieldErrors);
        input.current?.focus();
      } else setFailure(serverMessage(error));
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (add.isPending) return;
    setStatus('');
    setFailure(null);
    const found = noteErrors(body);
    setErrors(found);
    if (found.length > 0) {
      input.current?.focus();
      return;
    }
    add.mutate(body.trim());
  };

  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        Internal notes
      </h2>
      <p className={styles.muted}>{NOTES_PRIVACY}</p>
      {notes.isPending ? (
        <p className={styles.muted}>Loading the notes...</p>
      ) : notes.isError ? (
        <FormAlert message={serverMessage(notes.error)} />
      ) : (
        <NotesList notes={notes.data} />
      )}
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      <form noValidate onSubmit={onSubmit} className={committee.fields}>
        <div className={controls.field}>
          <label htmlFor={fieldId} className={controls.label}>
            <QuestionLabel text="New note" required />
          </label>
          <textarea
            ref={input}
            id={fieldId}
            className={cx(committee.textarea, errors.length > 0 && controls.controlInvalid)}
            value={body}
            maxLength={5000}
            required
            aria-invalid={errors.length > 0 || undefined}
            aria-describedby={`${fieldId}-error`}
            onChange={(event) => {
              setBody(event.target.value);
              if (errors.length > 0) setErrors([]);
            }}
          />
          <FieldErrors id={`${fieldId}-error`} errors={errors} />
        </div>
        <Button type="submit" variant="primary" aria-disabled={add.isPending || undefined}>
          {add.isPending ? 'Adding...' : 'Add note'}
        </Button>
      </form>
    </section>
  );
}

/** The notes, newest first, each with its author and time. */
export function NotesList({ notes }: { notes: readonly ApplicationNote[] }) {
  if (notes.length === 0) return <p className={styles.muted}>No notes yet.</p>;
  return (
    <ol className={committee.notes} aria-label="Notes, newest first">
      {newestFirst(notes).map((note) => (
        <li key={note.id} className={committee.note}>
          <strong>{note.author}</strong>{' '}
          <time className={styles.muted} dateTime={note.created_at}>
            {formatDateTime(note.created_at)}
          </time>
          <p>{note.body}</p>
        </li>
      ))}
    </ol>
  );
}
