import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import {
  type CommitteeView,
  REVIEW_API,
  ROUND_LABELS,
  reassignedReadSchema,
} from '../../../shared/review/review-api';
import { putJson } from '../../data/http-client';
import { Button } from '../../ui/button';
import controls from '../../ui/form-controls.module.css';
import { QuestionLabel } from '../../ui/question-label';
import { FieldErrors } from '../../ui/text-field';
import styles from '../shell/console.module.css';
import { FormAlert, serverMessage } from '../shell/staff-form';
import committee from './committee.module.css';
import { committeeKeys, parsed, readersQuery } from './committee-calls';

/** A read not yet submitted, as the choice names it: its round and who holds it. */
function readChoiceLabel(read: CommitteeView['reads'][number]): string {
  return `${ROUND_LABELS[read.round]}: ${read.reader_name ?? 'no reader yet'}`;
}

/**
 * Gives a read not yet submitted to another reader (`reviews.assign`). The read keeps its draft:
 * only who holds it changes. The server refuses a disabled member, one with a conflict of
 * interest or one who already reads the application, and says which.
 */
export function ReassignReadForm({
  applicationId,
  reads,
}: {
  applicationId: string;
  reads: CommitteeView['reads'];
}) {
  const open = reads.filter((read) => read.status !== 'submitted');
  const readers = useQuery(readersQuery);
  const queryClient = useQueryClient();
  const formId = useId();
  const [readId, setReadId] = useState('');
  const [readerId, setReaderId] = useState('');
  const [errors, setErrors] = useState<{ read?: string; reader?: string }>({});
  const [status, setStatus] = useState('');
  const give = useMutation({
    mutationFn: (body: { readId: string; readerId: string }) =>
      putJson<unknown>(REVIEW_API.reassign(encodeURIComponent(body.readId)), {
        reader_id: body.readerId,
      }).then(parsed(reassignedReadSchema)),
    onSuccess: (read) => {
      setStatus(
        `${ROUND_LABELS[read.round]} given to ${read.reader_name}. Its draft goes with it.`,
      );
      setReadId('');
      setReaderId('');
      void queryClient.invalidateQueries({ queryKey: committeeKeys.committee(applicationId) });
      void queryClient.invalidateQueries({ queryKey: readersQuery.queryKey });
    },
  });
  if (open.length === 0) return null;
  const offered = (readers.data?.readers ?? []).filter((reader) => !reader.disabled);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setStatus('');
    const found = {
      ...(readId ? {} : { read: 'Choose the read to give.' }),
      ...(readerId ? {} : { reader: 'Choose a reader.' }),
    };
    setErrors(found);
    if (found.read || found.reader) return;
    give.mutate({ readId, readerId });
  };

  return (
    <>
      <h3 className={styles.subTitle}>Give a read to another reader</h3>
      <form noValidate onSubmit={onSubmit} className={committee.reassign}>
        <div className={controls.field}>
          <label htmlFor={`${formId}-read`} className={controls.label}>
            <QuestionLabel text="Read" required />
          </label>
          <select
            id={`${formId}-read`}
            className={styles.select}
            value={readId}
            required
            aria-invalid={errors.read ? true : undefined}
            aria-describedby={`${formId}-read-error`}
            onChange={(event) => setReadId(event.target.value)}
          >
            <option value="">Choose a read</option>
            {open.map((read) => (
              <option key={read.id} value={read.id}>
                {readChoiceLabel(read)}
              </option>
            ))}
          </select>
          <FieldErrors id={`${formId}-read-error`} errors={errors.read ? [errors.read] : []} />
        </div>
        <div className={controls.field}>
          <label htmlFor={`${formId}-reader`} className={controls.label}>
            <QuestionLabel text="To" required />
          </label>
          <select
            id={`${formId}-reader`}
            className={styles.select}
            value={readerId}
            required
            aria-invalid={errors.reader ? true : undefined}
            aria-describedby={`${formId}-reader-error`}
            onChange={(event) => setReaderId(event.target.value)}
          >
            <option value="">Choose a reader</option>
            {offered.map((reader) => (
              <option key={reader.id} value={reader.id}>
                {reader.name} ({reader.open} open)
              </option>
            ))}
          </select>
          <FieldErrors
            id={`${formId}-reader-error`}
            errors={errors.reader ? [errors.reader] : []}
          />
        </div>
        <Button type="submit" variant="secondary" aria-disabled={give.isPending || undefined}>
          Give the read
        </Button>
      </form>
      {give.isError ? <FormAlert message={serverMessage(give.error)} /> : null}
      <p role="status" className={styles.muted}>
        {status}
      </p>
    </>
  );
}
