import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { AssignmentResult } from '../../../shared/review/review-api';
import { type ListQuery, listQueryString } from '../../../shared/staff/list-query';
import { ServerError } from '../../data/http-client';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import controls from '../../ui/form-controls.module.css';
import { FieldErrors } from '../../ui/text-field';
import { fetchApplicationList, listKeys } from '../common/staff-query-keys';
import { submittedQueryOf } from '../decisions/decision-logic';
import { ConfirmDialog } from '../shell/confirm-dialog';
import styles from '../shell/console.module.css';
import { meQueryOptions } from '../shell/staff-calls';
import { FormAlert, serverMessage } from '../shell/staff-form';
import committee from './committee.module.css';
import { committeeCalls, readersQuery } from './committee-calls';
import { type AssignChoices, assignBody, assignmentText, assignQuestion } from './committee-logic';

/**
 * Readers for every submitted application the list's search and filters find. `count` is the
 * number the administrator is shown and confirms (sent as `expected_count`, so a list that
 * changed meanwhile is refused); without it the panel asks for the submitted count itself.
 */
export function AssignListPanel({ query, count }: { query: ListQuery; count?: number | null }) {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  if (!me?.permissions.includes('reviews.assign')) return null;
  return <AssignList query={query} count={count} />;
}

function AssignList({ query, count: given }: { query: ListQuery; count?: number | null }) {
  const queryClient = useQueryClient();
  const titleId = useId();
  const readers = useQuery(readersQuery);
  const submittedQuery = submittedQueryOf(query);
  const submittedSearch = submittedQuery ? listQueryString(submittedQuery) : null;
  const submitted = useQuery({
    queryKey: listKeys.list(submittedSearch ?? 'none'),
    queryFn: ({ signal }) => fetchApplicationList(submittedSearch ?? '', signal),
    enabled: given === undefined && submittedSearch !== null,
  });
  const count =
    given !== undefined ? given : submittedSearch === null ? 0 : (submitted.data?.total ?? null);

  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set());
  const [secondReads, setSecondReads] = useState<boolean | null>(null);
  const [cap, setCap] = useState('');
  const [errors, setErrors] = useState<{ readers?: string; cap?: string }>({});
  const [asking, setAsking] = useState<AssignPending | null>(null);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const offered = (readers.data?.readers ?? []).filter((reader) => !reader.disabled);
  const withSecond = secondReads ?? readers.data?.second_reads ?? true;

  const assign = useMutation({
    mutationFn: committeeCalls.assign,
    onSuccess: (result: AssignmentResult) => {
      setStatus(assignmentText(result));
      void queryClient.invalidateQueries({ queryKey: readersQuery.queryKey });
    },
    onError: (error) => {
      if (error instanceof ServerError && error.status === 409) {
        // The list changed since it was counted: the new count is asked for before a retry.
        void queryClient.invalidateQueries({ queryKey: listKeys.all });
        setFailure(`The list has changed. ${serverMessage(error)}`);
        return;
      }
      setFailure(serverMessage(error));
    },
  });

  const ask = () => {
    if (assign.isPending) return;
    setStatus('');
    setFailure(null);
    if (count === null) {
      setFailure('The list is still being counted. Try again in a moment.');
      return;
    }
    const choices: AssignChoices = { readerIds: [...chosen], secondReads: withSecond, cap };
    const checked = assignBody(listQueryString(query, { paging: false }), choices, count);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    if (count === 0) {
      setFailure('No submitted applications match these filters.');
      return;
    }
    setAsking({ body: checked.body, count, readers: chosen.size });
  };

  const toggle = (readerId: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(readerId);
      else next.delete(readerId);
      return next;
    });

  const capId = `${titleId}-cap`;
  const readersErrorId = `${titleId}-readers-error`;
  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        Assign this list
      </h2>
      <p className={styles.muted}>
        Readers for every submitted application the search and filters find, not only this page
        {count === null ? '.' : `: ${count.toLocaleString('en-US')} applications.`}
      </p>
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      {readers.isPending ? (
        <p className={styles.muted}>Loading the readers...</p>
      ) : readers.isError ? (
        <FormAlert message={serverMessage(readers.error)} />
      ) : (
        <div className={committee.fields}>
          <fieldset className={committee.readers} aria-describedby={readersErrorId}>
            <legend>Readers</legend>
            {offered.length === 0 ? (
              <p className={styles.muted}>No member can read applications.</p>
            ) : null}
            {offered.map((reader) => (
              <label key={reader.id} className={styles.checkbox}>
                <input
                  type="checkbox"
                  checked={chosen.has(reader.id)}
                  onChange={(event) => toggle(reader.id, event.target.checked)}
                />
                <span>
                  {reader.name}{' '}
                  <span className={styles.muted}>({reader.open.toLocaleString('en-US')} open)</span>
                </span>
              </label>
            ))}
            <FieldErrors id={readersErrorId} errors={errors.readers ? [errors.readers] : []} />
          </fieldset>
          <label className={styles.checkbox}>
            <input
              type="checkbox"
              checked={withSecond}
              onChange={(event) => setSecondReads(event.target.checked)}
            />
            <span>Add a blind second read by a different reader</span>
          </label>
          <div className={controls.field}>
            <label htmlFor={capId} className={controls.label}>
              Most open reads per reader (optional)
            </label>
            <p id={`${capId}-hint`} className={controls.hint}>
              Leave empty for no cap.
            </p>
            <div className={cx(controls.control, errors.cap && controls.controlInvalid)}>
              <input
                id={capId}
                className={cx(controls.input, committee.cap)}
                inputMode="numeric"
                value={cap}
                onChange={(event) => setCap(event.target.value)}
                aria-invalid={errors.cap ? true : undefined}
                aria-describedby={`${capId}-hint ${capId}-error`}
              />
            </div>
            <FieldErrors id={`${capId}-error`} errors={errors.cap ? [errors.cap] : []} />
          </div>
          <Button
            type="button"
            variant="primary"
            aria-disabled={assign.isPending || undefined}
            onClick={ask}
          >
            {assign.isPending ? 'Assigning...' : 'Assign readers'}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={asking ? assignQuestion(asking.count, asking.readers) : 'Confirm'}
        description={asking ? assignDescription(asking) : undefined}
        action="Assign"
        onConfirm={() => {
          const pending = asking;
          setAsking(null);
          if (pending) assign.mutate(pending.body);
        }}
        onCancel={() => setAsking(null)}
      />
    </section>
  );
}

interface AssignPending {
  body: Parameters<typeof committeeCalls.assign>[0];
  count: number;
  readers: number;
}

/** What the confirmation says besides its question. */
export function assignDescription(pending: AssignPending): string {
  const { body } = pending;
  return [
    body.second_reads
      ? 'Each application also gets a blind second read by a different reader.'
      : 'One read per application.',
    body.cap === undefined ? 'No cap per reader.' : `At most ${body.cap} open reads per reader.`,
    'If the list has changed by then, nothing is assigned.',
  ].join(' ');
}
